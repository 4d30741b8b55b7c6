// SIGBUS from a shrunken file mapping turned into a flag (docs/cli.md, "A file that
// shrinks"). Replacing the page rather than jumping out of the handler (siglongjmp) keeps
// the importer's own unwinding intact, and works when the importer's helper thread faults.
#include "truncation_guard.hpp"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace onnximport::cli {

namespace {

std::atomic<bool> armed{false};
std::atomic<bool> faulted{false};
std::atomic<uintptr_t> page_size{4096};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<uintptr_t>::is_always_lock_free,
              "the handler may only touch lock-free atomics");

/// Gives the signal back its default action: returning re-runs the faulting access, which
/// then ends the process with SIGBUS as it would have without the CLI.
void fall_back_to_default() noexcept {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGBUS, &dfl, nullptr);
}

void on_sigbus(int, siginfo_t* info, void*) noexcept {
    if (!armed.load() || info->si_code != BUS_ADRERR || info->si_addr == nullptr) return fall_back_to_default();
    const uintptr_t page = reinterpret_cast<uintptr_t>(info->si_addr) & ~(page_size.load() - 1);
    // The page lies in a file mapping (only those raise BUS_ADRERR), so a fixed mapping of
    // one page replaces part of that mapping and nothing else; mmap is a plain system call.
    void* p = ::mmap(reinterpret_cast<void*>(page), page_size.load(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) return fall_back_to_default();
    faulted.store(true);
}

}  // namespace

TruncationGuard::TruncationGuard() {
    page_size.store(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)));
    faulted.store(false);
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, nullptr);
    armed.store(true);
}

TruncationGuard::~TruncationGuard() {
    armed.store(false);
    fall_back_to_default();
}

bool TruncationGuard::truncated() const noexcept { return faulted.load(); }

}  // namespace onnximport::cli
