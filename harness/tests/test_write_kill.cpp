// Suite `write_kill`: each writer killed at every file-system step (write/faults.hpp,
// kill_at_step) over an older output in the same folder. After each kill the model there
// imports and dumps as the old model or as the new one, never a mix; one more write then
// leaves no temporary of ours and no data file no model names (docs/write.md, "What a kill
// can leave").
#include "core_support.hpp"
#include "write_support.hpp"

#include "write/faults.hpp"
#include "write/generations.hpp"
#include "write/ort/write_ort.hpp"
#include "write/write_onnx.hpp"

#include <numbered.hpp>
#include <onnximport/dump.hpp>
#include <onnximport/write.hpp>
#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <functional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using onnximport::testing::numbered;
using namespace core_test;
using namespace write_test;
using onnximport::detail::WriteFaults;

namespace {

namespace P = onnximport::proto;
namespace tb = onnximport::testing;

std::string filled(size_t bytes, int seed) {
    std::string s(bytes, '\0');
    for (size_t i = 0; i < bytes; ++i) s[i] = static_cast<char>(i * 13 + static_cast<size_t>(seed));
    return s;
}

/// Y = X + W + V, two weights of 2000 bytes (over the default threshold), their bytes and the
/// nodes' names set by `seed`: a model file read with another model's data dumps as neither.
Model weights_model(int seed) {
    using G = P::Graph;
    WireWriter g;
    g.message(G::node, tb::node("Add", {"X", "W"}, {"B"}, numbered("first ", seed)));
    g.message(G::node, tb::node("Add", {"B", "V"}, {"Y"}, numbered("second ", seed)));
    g.message(G::initializer, tb::tensor_raw("W", 1, {500}, filled(2000, seed)));
    g.message(G::initializer, tb::tensor_raw("V", 1, {500}, filled(2000, seed + 1)));
    g.message(G::input, tb::value_info("X", 1, {500}));
    g.message(G::output, tb::value_info("Y", 1, {500}));
    return import_bytes(bytes_of(tb::model(g).str()), "weights.onnx", ImportOptions{});
}

/// The dump without the external-data entries (a generation name is random) and the storage
/// lines: what differs between an old and a new model is then their weights' bytes.
std::string dump_blind(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    std::istringstream in(out.str());
    std::string kept, line;
    while (std::getline(in, line)) {
        const auto word = line.find_first_not_of(' ');
        const std::string_view rest = std::string_view(line).substr(word == std::string::npos ? 0 : word);
        if (rest.starts_with("data_location ") || rest.starts_with("external_data ") || rest.starts_with("source "))
            continue;
        kept += line + "\n";
    }
    return kept;
}

/// A writer of one model into a folder, through the seam.
using Writer = std::function<void(const Model&, const fs::path& folder, WriteFaults*)>;

/// Runs `write` of `m` in a child killed at step `step`: true when it finished first. The
/// verdict goes through a pipe: under valgrind a child's exit status is valgrind's (its leak
/// report of a process that leaves by _exit), as in suite `output`.
bool finished_before(const Writer& write, const Model& m, const fs::path& folder, uint64_t step) {
    int verdict_pipe[2];
    BOOST_REQUIRE(::pipe(verdict_pipe) == 0);
    const pid_t child = ::fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
        ::close(verdict_pipe[0]);
        WriteFaults faults;
        faults.kill_at_step = step;
        char verdict = 'f';  // finished
        try {
            write(m, folder, &faults);
        } catch (...) {
            verdict = 'e';
        }
        (void)!::write(verdict_pipe[1], &verdict, 1);
        ::_exit(0);
    }
    ::close(verdict_pipe[1]);
    int status = 0;
    BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
    char verdict = 0;
    const bool told = ::read(verdict_pipe[0], &verdict, 1) == 1;
    ::close(verdict_pipe[0]);
    if (!told && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return false;
    BOOST_REQUIRE_MESSAGE(told && verdict == 'f', "the writer failed at step " << step);
    return true;
}

enum class Seen { old_model, new_model, mix };

Seen what_is_in(const fs::path& model, const std::string& old_dump, const std::string& new_dump) {
    try {
        const std::string d = dump_blind(import_file(model));
        return d == old_dump ? Seen::old_model : d == new_dump ? Seen::new_model : Seen::mix;
    } catch (const ImportError&) {
        return Seen::mix;
    }
}

/// The steps at which a kill left a mix. For each step from 1 until the writer finishes: a
/// folder with the old output (written `old_writes` times), the new write killed there, the
/// folder judged, then one more write, after which the folder holds exactly the model and the
/// one data file it names (`expected_after` gives that listing for the folder).
std::vector<uint64_t> kill_at_every_step(const Writer& write, const std::string& model_name, int old_writes,
                                        const std::function<std::set<std::string>(const fs::path&)>& expected_after) {
    const Model old_model = weights_model(1), new_model = weights_model(50);
    std::string new_dump;
    {
        TempDir clean;
        write(new_model, clean.root, nullptr);
        new_dump = dump_blind(import_file(clean.root / model_name));
    }
    std::vector<uint64_t> mixed;
    for (uint64_t step = 1;; ++step) {
        BOOST_TEST_CONTEXT("kill at step " << step) {
            TempDir t;
            for (int i = 0; i < old_writes; ++i) write(old_model, t.root, nullptr);
            const std::string old_dump = dump_blind(import_file(t.root / model_name));
            BOOST_TEST_REQUIRE(old_dump != new_dump);
            const bool done = finished_before(write, new_model, t.root, step);
            const Seen seen = what_is_in(t.root / model_name, old_dump, new_dump);
            if (seen == Seen::mix) mixed.push_back(step);
            if (done) BOOST_TEST((seen == Seen::new_model));
            write(new_model, t.root, nullptr);
            BOOST_TEST((what_is_in(t.root / model_name, old_dump, new_dump) == Seen::new_model));
            BOOST_TEST(listing(t.root) == expected_after(t.root));
            if (done) {
                BOOST_TEST_MESSAGE(model_name << ": " << step - 1 << " steps, " << mixed.size() << " kills left a mix");
                BOOST_TEST(step > 5u);  // the seam counted the writer's steps
                return mixed;
            }
        }
        BOOST_TEST_REQUIRE(step < 10000u);
    }
}

/// The model and the data file it names, whatever its name: nothing else may be left.
std::function<std::set<std::string>(const fs::path&)> model_and_its_data(const std::string& model_name) {
    return [model_name](const fs::path& folder) {
        std::set<std::string> out{model_name};
        const std::string model = read_all(folder / model_name);
        for (const auto& name : listing(folder))
            if (name != model_name && model.find(name) != std::string::npos) out.insert(name);
        BOOST_TEST(out.size() == 2u);
        return out;
    };
}

/// Named temporaries and the link-and-unlink publish, as where O_TMPFILE and RENAME_NOREPLACE
/// are missing, when `fallbacks`.
WriteFaults* seam_of(WriteFaults* faults, WriteFaults& none, bool fallbacks) {
    WriteFaults* seam = faults ? faults : &none;
    seam->link_publish = fallbacks;
    seam->named_temporaries = fallbacks;
    return seam;
}

Writer onnx_writer(bool fallbacks) {
    return [fallbacks](const Model& m, const fs::path& folder, WriteFaults* faults) {
        WriteOptions o;
        o.external_data.file = "weights.bin";
        WriteFaults none;
        onnximport::detail::write_onnx(m, folder / "m.onnx", o, seam_of(faults, none, fallbacks));
    };
}

Writer ort_writer(bool companion, bool fallbacks = false) {
    return [companion, fallbacks](const Model& m, const fs::path& folder, WriteFaults* faults) {
        OrtWriteOptions o;
        if (companion) o.external_data.file = "m.ort.data";
        WriteFaults none;
        onnximport::detail::write_ort(m, folder / "m.ort", o, seam_of(faults, none, fallbacks));
    };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_kill)

BOOST_AUTO_TEST_CASE(a_killed_onnx_writer_leaves_the_old_model_and_data_or_the_new_never_a_mix) {
    // Over a pair at the requested name (the new data takes a generation name) and over a
    // generation (the new data takes the requested name), with O_TMPFILE and renameat2 and
    // with their fallbacks.
    for (int old_writes : {1, 2})
        for (bool fallbacks : {false, true})
            BOOST_TEST_CONTEXT("old written " << old_writes << " times, fallbacks " << fallbacks) {
                const auto mixed = kill_at_every_step(onnx_writer(fallbacks), "m.onnx", old_writes,
                                                      model_and_its_data("m.onnx"));
                BOOST_TEST(mixed.empty(), "first mix at step " << (mixed.empty() ? 0 : mixed.front()));
            }
}

BOOST_AUTO_TEST_CASE(a_killed_inline_onnx_writer_leaves_the_old_model_or_the_new) {
    const Writer inline_onnx = [](const Model& m, const fs::path& folder, WriteFaults* faults) {
        onnximport::detail::write_onnx(m, folder / "m.onnx", WriteOptions{}, faults);
    };
    const auto mixed = kill_at_every_step(inline_onnx, "m.onnx", 1,
                                          [](const fs::path&) { return std::set<std::string>{"m.onnx"}; });
    BOOST_TEST(mixed.empty());
}

BOOST_AUTO_TEST_CASE(a_killed_inline_ort_writer_leaves_the_old_model_or_the_new) {
    const auto mixed = kill_at_every_step(ort_writer(false), "m.ort", 1,
                                          [](const fs::path&) { return std::set<std::string>{"m.ort"}; });
    BOOST_TEST(mixed.empty());
}

BOOST_AUTO_TEST_CASE(a_killed_ort_writer_leaves_the_old_model_and_companion_or_the_new_never_a_mix) {
    // The model names its companion (rule O7), which takes a generation name when the
    // requested one is taken: as for .onnx, over a pair at the requested name and over a
    // generation, with and without the fallbacks.
    for (int old_writes : {1, 2})
        for (bool fallbacks : {false, true})
            BOOST_TEST_CONTEXT("old written " << old_writes << " times, fallbacks " << fallbacks) {
                const auto mixed = kill_at_every_step(ort_writer(true, fallbacks), "m.ort", old_writes,
                                                      model_and_its_data("m.ort"));
                BOOST_TEST(mixed.empty(), "first mix at step " << (mixed.empty() ? 0 : mixed.front()));
            }
}

BOOST_AUTO_TEST_SUITE_END()
