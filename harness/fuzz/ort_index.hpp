// The objects of a .ort buffer and the references to them, for fuzz_ort's mutator (ort_mutator.cpp)
// and its statistics (docs/fuzzing.md, "Shared and aliased .ort objects"). One walk from the root
// with the mini-reflection type tables flatc generates for importer/schema/ort.fbs: every object is
// entered once however many uoffsets reach it (a diamond of shared tables costs its size, not its
// paths), and every read is bounds-checked, so a buffer that does not verify is indexed as far as
// it reads and marked incomplete. Not a verifier: the generated Verifier stays the oracle of
// structure.
#pragma once

#include <flatbuffers/minireflect.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gauntlet_fuzz::ort {

/// What a uoffset may point at: a table of one type, a vector of one element type, a string.
struct ObjType {
    enum Shape : uint8_t { Table, Vector, String } shape = Table;
    uint8_t element = 0;                          ///< a vector's flatbuffers::ElementaryType
    const flatbuffers::TypeTable* ref = nullptr;  ///< the table, or a vector's table or struct entries
    bool operator==(const ObjType&) const = default;
    /// A vector whose entries are uoffsets (tables or strings): what references grow in.
    bool offsets() const noexcept;
    /// The type of a vector's entries when they are uoffsets.
    ObjType entry() const noexcept;
};

/// A table (from its soffset to the end of its inline fields), vector or string (from its
/// length prefix to its last entry, a string's terminator excluded).
struct Object {
    uint32_t at = 0;
    uint32_t end = 0;
    ObjType type;
    uint32_t count = 0;   ///< a vector's or string's entries
    uint32_t stride = 0;  ///< bytes per entry
};

/// A uoffset stored at `slot` (a table field, a vector entry, the root offset).
struct Ref {
    uint32_t slot = 0;
    uint32_t target = 0;
    ObjType type;
};

/// A place a scalar mutation may change.
struct Place {
    enum Kind : uint8_t { Scalar, UOffset, Length, VtableEntry, SOffset } kind;
    uint8_t width;
    uint32_t at;
};

struct Index {
    std::vector<Object> objects;
    std::vector<Ref> refs;
    std::vector<Place> places;
    std::vector<std::pair<uint32_t, uint32_t>> vtables;  ///< [start, end) of the vtables the tables use
    bool complete = true;           ///< every reference was followed inside the buffer

    /// Objects reached by more than one reference, and the most references to one object.
    struct Sharing {
        size_t objects = 0;
        size_t most = 0;
    };
    Sharing sharing() const;
    /// Pairs of objects of which one starts strictly inside the other (vectors that overlap).
    size_t overlapping() const;
    /// An object that starts at `at` with `type`, or nullptr.
    const Object* find(uint32_t at, const ObjType& type) const;
    /// No object or vtable starts before `at` and ends after it: bytes may be inserted there.
    bool boundary(uint32_t at) const;
};

/// The index of an InferenceSession buffer (identifier ORTM at bytes 4..7 is not required).
Index index_of(const uint8_t* data, size_t size);

}  // namespace gauntlet_fuzz::ort
