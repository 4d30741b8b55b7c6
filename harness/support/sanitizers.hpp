// Which sanitizer a test is built with (GAUNTLET_SANITIZE; make test-asan and test-tsan):
// GCC says so with __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang with __has_feature.
// GAUNTLET_ASAN and GAUNTLET_TSAN are for the preprocessor (a test that exists only there,
// sanitizer/asan_interface.h), the constants below for code.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define GAUNTLET_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GAUNTLET_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define GAUNTLET_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GAUNTLET_TSAN 1
#endif
#endif

namespace onnximport::testing {

#ifdef GAUNTLET_ASAN
inline constexpr bool under_asan = true;
#else
inline constexpr bool under_asan = false;
#endif
#ifdef GAUNTLET_TSAN
inline constexpr bool under_tsan = true;
#else
inline constexpr bool under_tsan = false;
#endif
/// Shadow memory and slower accesses: time and memory measurements mean little here.
inline constexpr bool sanitized = under_asan || under_tsan;

}  // namespace onnximport::testing
