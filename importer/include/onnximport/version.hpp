// The library's version. CMakeLists.txt reads it from here (the one place it is written),
// for the CMake package, the pkg-config file and `onnximport --version`.
#pragma once

#define ONNXIMPORT_VERSION_MAJOR 0
#define ONNXIMPORT_VERSION_MINOR 1
#define ONNXIMPORT_VERSION_PATCH 0

#define ONNXIMPORT_VERSION_TEXT_(x) #x
#define ONNXIMPORT_VERSION_TEXT(x) ONNXIMPORT_VERSION_TEXT_(x)
/// "MAJOR.MINOR.PATCH"
#define ONNXIMPORT_VERSION_STRING                                                              \
    ONNXIMPORT_VERSION_TEXT(ONNXIMPORT_VERSION_MAJOR) "." ONNXIMPORT_VERSION_TEXT(ONNXIMPORT_VERSION_MINOR) "." \
        ONNXIMPORT_VERSION_TEXT(ONNXIMPORT_VERSION_PATCH)

namespace onnximport {

/// The version of the headers compiled against, as MAJOR * 10000 + MINOR * 100 + PATCH.
inline constexpr int version_number =
    ONNXIMPORT_VERSION_MAJOR * 10000 + ONNXIMPORT_VERSION_MINOR * 100 + ONNXIMPORT_VERSION_PATCH;

}  // namespace onnximport
