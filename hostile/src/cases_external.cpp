// Hostile cases for spec section 5 (external data): the published loader bugs of other
// importers as files. Traversal in all its forms (nested .., backslashes, absolute,
// drive letters, UNC, NUL, symbolic links to files and through folders, hard links),
// ONNX Runtime's */_ORT_MEM_ADDR_/* location, duplicate keys, offsets and lengths that
// are not decimal, huge, or wrap 64 bits, and the exact end of the file on both sides.
// Outside targets are /etc/passwd and /etc, which exist on every Linux machine, so a
// traversal that is not refused really does reach a file.
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

const std::string data_bin = pattern(64, 7);   // data.bin
const std::string sub_data = pattern(64, 8);   // sub/data.bin
const std::string dots_bin = pattern(16, 9);   // a..b.bin
const std::string origin_bin = pattern(16, 10);  // sub/hardlink-origin.bin, hard-linked as hardlink.bin

WireWriter external(std::string_view name, int32_t type, const std::vector<int64_t>& dims, const Entries& entries) {
    WireWriter t = tensor_head(name, type, dims);
    for (const auto& [k, v] : entries) t.message(p::Tensor::external_data, ob::string_entry(k, v));
    t.int_field(p::Tensor::data_location, 1);
    return t;
}

/// float [4] (16 bytes) named T with the given entries, as the model's one initializer.
std::string ext4(const Entries& entries) { return model_with_initializer(external("T", 1, {4}, entries)); }
std::string at(std::string_view location) { return ext4({{"location", std::string(location)}}); }

json sha(const std::string& bytes, std::string_view name = "T") {
    return {{"tensor_sha256", {{std::string(name), sha256_hex(bytes)}}}};
}

}  // namespace

void add_external_cases(Corpus& c) {
    // Side files, links and folders every case below relies on.
    c.side_file("data.bin", data_bin);
    c.side_file("sub/data.bin", sub_data);
    c.side_file("a..b.bin", dots_bin);
    c.side_file("empty.bin", "");
    c.side_file("sub/hardlink-origin.bin", origin_bin);
    c.side_hardlink("hardlink.bin", "sub/hardlink-origin.bin");
    c.side_symlink("link-inside.bin", "data.bin");
    c.side_symlink("link-chain-1.bin", "link-chain-2.bin");
    c.side_symlink("link-chain-2.bin", "sub/data.bin");
    c.side_symlink("link-dir-inside", "sub");
    c.side_symlink("sub/up-link", "..");
    c.side_symlink("link-outside-abs", "/etc/passwd");
    c.side_symlink("link-outside-rel", "../../../../../../../../../../../../../../../../etc/passwd");
    c.side_symlink("link-dir-outside", "/etc");
    c.side_symlink("link-dangling.bin", "no-such-target.bin");
    c.side_symlink("link-loop.bin", "link-loop.bin");
    c.side_sparse("huge-sparse.bin", 0x7FFFFFFFu);

    // Accepted references.
    c.accept("external-basic", r::entries, "float [4] from data.bin, offset and length defaulted", at("data.bin"),
             sha(data_bin.substr(0, 16)));
    c.accept("external-offset-length", r::decimal, "offset 16, length 16",
             ext4({{"location", "data.bin"}, {"offset", "16"}, {"length", "16"}}), sha(data_bin.substr(16, 16)));
    c.accept("external-offset-leading-zeros", r::decimal, "offset \"0016\" is still a decimal integer",
             ext4({{"location", "data.bin"}, {"offset", "0016"}}), sha(data_bin.substr(16, 16)));
    c.accept("external-range-ends-at-file-end", r::range_end, "offset 48 + length 16 = the file's 64 bytes exactly",
             ext4({{"location", "data.bin"}, {"offset", "48"}, {"length", "16"}}), sha(data_bin.substr(48, 16)));
    c.accept("external-zero-elements-at-end", r::range_end,
             "float [0] at offset 64 of a 64-byte file: an empty range at the end",
             model_with_initializer(external("T", 1, {0}, {{"location", "data.bin"}, {"offset", "64"}})),
             {{"tensor_bytes", {{"T", 0}}}});
    c.accept("external-empty-file-empty-tensor", r::range_end, "float [0] from an empty file",
             model_with_initializer(external("T", 1, {0}, {{"location", "empty.bin"}})),
             {{"tensor_bytes", {{"T", 0}}}});
    c.accept("external-checksum-ignored", r::entries, "a checksum that matches nothing is ignored",
             ext4({{"location", "data.bin"}, {"checksum", "not-a-checksum"}}), sha(data_bin.substr(0, 16)));
    c.accept(
        "external-shared-file", r::mapped, "two tensors from one file (one mapping)",
        [] {
            WireWriter g = base_graph();
            g.message(p::Graph::initializer, external("A", 1, {4}, {{"location", "data.bin"}}));
            g.message(p::Graph::initializer, external("B", 1, {4}, {{"location", "data.bin"}, {"offset", "32"}}));
            return ob::model(g).str();
        }(),
        {{"tensor_sha256", {{"A", sha256_hex(data_bin.substr(0, 16))}, {"B", sha256_hex(data_bin.substr(32, 16))}}}});
    c.accept("external-subfolder", r::joined, "sub/data.bin", at("sub/data.bin"), sha(sub_data.substr(0, 16)));
    c.accept("external-dot-segment", r::relative, "./data.bin: '.' is not '..'", at("./data.bin"),
             sha(data_bin.substr(0, 16)));
    c.accept("external-dots-inside-name", r::relative, "a..b.bin: '..' inside a name is not a '..' segment",
             at("a..b.bin"), sha(dots_bin));
    c.accept("external-symlink-inside", r::joined, "link-inside.bin -> data.bin: resolved, inside",
             at("link-inside.bin"), sha(data_bin.substr(0, 16)));
    c.accept("external-symlink-chain-inside", r::joined, "link-chain-1.bin -> link-chain-2.bin -> sub/data.bin",
             at("link-chain-1.bin"), sha(sub_data.substr(0, 16)));
    c.accept("external-folder-symlink-inside", r::joined,
             "link-dir-inside -> sub, so link-dir-inside/data.bin is sub/data.bin", at("link-dir-inside/data.bin"),
             sha(sub_data.substr(0, 16)));
    c.accept("external-folder-symlink-up-and-back", r::inside,
             "sub/up-link -> .. resolves to the directory itself: still inside", at("sub/up-link/data.bin"),
             sha(data_bin.substr(0, 16)));
    c.accept("external-hard-link", r::hard_link,
             "hardlink.bin is a second name of sub/hardlink-origin.bin; a hard link is indistinguishable from a "
             "regular file, "
             "so one to a file elsewhere is accepted too (the spec's position)",
             at("hardlink.bin"), sha(origin_bin));
    c.accept("external-dir-option", r::joined, "with external_dir = sub, data.bin means sub/data.bin", at("data.bin"),
             sha(sub_data.substr(0, 16)))
        .options = {{"external_dir", "sub"}};
    c.accept("external-bytes-with-dir", r::joined,
             "imported from bytes, the caller names the corpus folder: resolved there", at("data.bin"),
             sha(data_bin.substr(0, 16)))
        .options = {{"import", "bytes"}, {"external_dir", "."}};
    c.accept("external-2gib-minus-1", r::too_big,
             "uint8 [2^31-1] from a 2^31-1 byte sparse file: the largest tensor, mapped, not read",
             model_with_initializer(external("T", 2, {0x7FFFFFFF}, {{"location", "huge-sparse.bin"}})),
             {{"tensor_bytes", {{"T", 0x7FFFFFFF}}}})
        .generated_only = true;
    c.refuse("Unsupported", "external-2gib-decided-before-location", r::too_big,
             "uint8 [2^31] with location /etc/passwd: too big is decided from dims before the location is looked at",
             model_with_initializer(external("T", 2, {0x80000000LL}, {{"location", "/etc/passwd"}})));

    // Location must be relative.
    struct Bad { const char* name; std::string location; const char* why; };
    const Bad relative[] = {
        {"location-empty", "", "an empty location"},
        {"location-nul", std::string("data.bin\0../../../etc/passwd", 28),
         "a NUL byte: C-string APIs would read data.bin"},
        {"location-absolute", "/etc/passwd", "an absolute path"},
        {"location-absolute-dev-zero", "/dev/zero", "an absolute device path (an endless read if opened)"},
        {"location-double-slash", "//etc/passwd", "starts with /"},
        {"location-backslash-root", "\\etc\\passwd", "starts with a backslash"},
        {"location-drive-letter", "C:\\Windows\\win.ini", "X:-prefixed (Windows absolute)"},
        {"location-drive-relative", "C:data.bin", "X:-prefixed without a separator (drive-relative on Windows)"},
        {"location-drive-forward-slash", "c:/data.bin", "lower-case drive with a forward slash"},
        {"location-unc", "\\\\server\\share\\data.bin", "a UNC path"},
        {"location-unc-device", "\\\\?\\C:\\data.bin", "a Win32 device path"},
        {"location-unc-forward", "//server/share/data.bin", "a UNC path with forward slashes"},
        {"location-dotdot", "../data.bin", "a leading .. segment"},
        {"location-dotdot-only", "..", "just .."},
        {"location-dotdot-nested", "sub/../../../../etc/passwd", "nested .. that climbs out"},
        {"location-dotdot-harmless", "sub/../data.bin", "a .. that would stay inside: still a .. segment"},
        {"location-dotdot-trailing", "sub/..", "a trailing .."},
        {"location-dotdot-backslash", "..\\..\\..\\etc\\passwd", ".. split at backslashes"},
        {"location-dotdot-mixed", "sub\\..\\../etc/passwd", ".. with mixed separators"},
        {"location-dotdot-deep",
         [] {
             std::string s;
             for (int i = 0; i < 64; ++i) s += "../";
             return s + "etc/passwd";
         }(),
         "64 levels of .."},
    };
    for (const auto& b : relative)
        c.refuse("ExternalData", b.name, r::relative, b.why, at(b.location)).endless = b.location == "/dev/zero";

    // Resolution: inside the directory, and a file.
    c.refuse("ExternalData", "location-ort-mem-addr", r::foreign_names,
             "*/_ORT_MEM_ADDR_/* makes ONNX Runtime read from a memory address; here it is a path to a file that does "
             "not exist",
             at("*/_ORT_MEM_ADDR_/*"));
    c.refuse("ExternalData", "location-percent-encoded", r::foreign_names,
             "%2e%2e/etc/passwd is a literal name, not a URL; no such file", at("%2e%2e/etc/passwd"));
    c.refuse("ExternalData", "location-missing-file", r::inside, "no-such-file.bin does not exist",
             at("no-such-file.bin"));
    c.refuse("ExternalData", "location-is-folder", r::inside, "sub is a folder, not a file", at("sub"));
    c.refuse("ExternalData", "location-is-folder-trailing-slash", r::inside, "sub/ is a folder", at("sub/"));
    c.refuse("ExternalData", "location-is-dot", r::inside, "'.' is the directory itself", at("."));
    c.refuse("ExternalData", "location-through-file", r::inside,
             "data.bin/x goes through a file as if it were a folder", at("data.bin/x"));
    c.refuse("ExternalData", "symlink-outside-absolute", r::inside, "link-outside-abs -> /etc/passwd",
             at("link-outside-abs"));
    c.refuse("ExternalData", "symlink-outside-relative", r::inside, "link-outside-rel -> ../../.../etc/passwd",
             at("link-outside-rel"));
    c.refuse("ExternalData", "symlink-folder-outside", r::inside,
             "link-dir-outside -> /etc, so link-dir-outside/passwd is /etc/passwd", at("link-dir-outside/passwd"));
    c.refuse("ExternalData", "symlink-dangling", r::inside, "link-dangling.bin points at nothing",
             at("link-dangling.bin"));
    c.refuse("ExternalData", "symlink-loop", r::inside, "link-loop.bin points at itself", at("link-loop.bin"));
    c.refuse("ExternalData", "symlink-folder-inside-to-folder", r::inside,
             "link-dir-inside resolves to the folder sub: not a file", at("link-dir-inside"));

    // Entries.
    c.refuse("ExternalData", "location-key-missing", r::entries, "external_data with an offset but no location",
             ext4({{"offset", "0"}}));
    c.refuse("ExternalData", "no-entries", r::entries, "data_location EXTERNAL and no external_data at all", ext4({}));
    c.refuse("ExternalData", "location-key-duplicate-bad-last", r::dup_key, "location data.bin then ../../etc/passwd",
             ext4({{"location", "data.bin"}, {"location", "../../etc/passwd"}}));
    c.refuse("ExternalData", "location-key-duplicate-bad-first", r::dup_key, "location /etc/passwd then data.bin",
             ext4({{"location", "/etc/passwd"}, {"location", "data.bin"}}));
    c.refuse("ExternalData", "location-key-duplicate-same", r::dup_key, "location data.bin twice",
             ext4({{"location", "data.bin"}, {"location", "data.bin"}}));
    c.refuse("ExternalData", "offset-key-duplicate", r::dup_key, "offset 0 then 16",
             ext4({{"location", "data.bin"}, {"offset", "0"}, {"offset", "16"}}));

    // Offsets and lengths.
    struct Num { const char* name; const char* key; const char* value; const char* why; Rule rule; };
    const Num nums[] = {
        {"offset-negative", "offset", "-1", "a negative offset", r::decimal},
        {"offset-hex", "offset", "0x10", "hexadecimal", r::decimal},
        {"offset-exponent", "offset", "1e3", "an exponent", r::decimal},
        {"offset-trailing-garbage", "offset", "12abc", "digits then letters", r::decimal},
        {"offset-leading-space", "offset", " 16", "a leading space", r::decimal},
        {"offset-plus-sign", "offset", "+16", "a sign is not part of a non-negative decimal integer here", r::decimal},
        {"offset-empty", "offset", "", "an empty offset", r::decimal},
        {"offset-2pow64-minus-1", "offset", "18446744073709551615", "offset 2^64-1: offset + 16 wraps to 15",
         r::range_end},
        {"offset-2pow64", "offset", "18446744073709551616", "2^64 does not fit in 64 bits", r::decimal},
        {"offset-huge", "offset", "99999999999999999999999999", "26 digits", r::decimal},
        {"offset-wraps-to-zero", "offset", "18446744073709551600",
         "offset 2^64-16 + length 16 = 2^64, which wraps to 0", r::range_end},
        {"offset-int64-max", "offset", "9223372036854775807", "2^63-1: a signed sum overflows", r::range_end},
        {"offset-one-past-fit", "offset", "49", "49 + 16 = 65 > 64", r::range_end},
        {"offset-past-end", "offset", "65", "offset beyond the file", r::range_end},
        {"length-short", "length", "8", "length 8 for a 16-byte tensor", r::length_eq},
        {"length-long", "length", "32", "length 32 for a 16-byte tensor (the file has room)", r::length_eq},
        {"length-zero", "length", "0", "length 0 for a 16-byte tensor", r::length_eq},
        {"length-negative", "length", "-16", "a negative length", r::decimal},
        {"length-2pow64-minus-1", "length", "18446744073709551615", "length 2^64-1", r::length_eq},
        {"length-trailing-space", "length", "16 ", "a trailing space", r::decimal},
    };
    for (const auto& n : nums)
        c.refuse("ExternalData", n.name, n.rule, n.why, ext4({{"location", "data.bin"}, {n.key, n.value}}));
    c.refuse("ExternalData", "default-length-past-end", r::range_end, "offset 52 with the default length 16: 68 > 64",
             ext4({{"location", "data.bin"}, {"offset", "52"}}));
    c.refuse("ExternalData", "tensor-bigger-than-file", r::range_end, "float [32] (128 bytes) from a 64-byte file",
             model_with_initializer(external("T", 1, {32}, {{"location", "data.bin"}})));

    // External tensors wherever tensors live.
    const Entries escape{{"location", "../../../../etc/passwd"}};
    c.refuse("ExternalData", "in-subgraph-initializer", r::everywhere,
             "an initializer of a then_branch with a .. location", [&] {
                 WireWriter sub = bare_graph({ob::node("Identity", {"X"}, {"t"}, "inner")}, {}, {"t"});
                 sub.message(p::Graph::initializer, external("S", 1, {4}, escape));
                 WireWriter n = ob::node("If", {"X"}, {"Z"}, "ifn");
                 n.message(p::Node::attribute, ob::attr_graph("then_branch", sub));
                 WireWriter g = base_graph();
                 g.message(p::Graph::node, n);
                 return ob::model(g).str();
             }());
    c.refuse("ExternalData", "in-constant-attribute", r::everywhere, "a Constant's value tensor with a .. location",
             model_with_attributes({ob::attr_tensor("value", external("v", 1, {4}, escape))}, "Constant"));
    c.refuse("ExternalData", "in-sparse-initializer-values", r::everywhere,
             "the values of a sparse initializer with a .. location", [&] {
                 WireWriter g = base_graph();
                 g.message(p::Graph::sparse_initializer,
                           ob::sparse_tensor(external("sp", 1, {4}, escape),
                                             ob::tensor_raw("", 7, {4}, std::string(32, '\0')), {8}));
                 return ob::model(g).str();
             }());
    c.refuse(
        "ExternalData", "in-function-attribute", r::everywhere,
        "a function body's Constant tensor pointing at /etc/passwd", [] {
            WireWriter body = ob::node("Constant", {}, {"b"}, "k");
            body.message(p::Node::attribute,
                         ob::attr_tensor("value", external("v", 1, {4}, {{"location", "/etc/passwd"}})));
            WireWriter fn;
            fn.bytes_field(p::Function::name, "f")
                .bytes_field(p::Function::output, "b")
                .message(p::Function::node, body)
                .message(p::Function::opset_import, ob::opset("", 21))
                .bytes_field(p::Function::domain, "local");
            return ob::minimal_model() + WireWriter().message(p::Model::functions, fn).str();
        }());
    c.refuse("ExternalData", "bytes-without-directory", r::joined,
             "a valid reference, but imported from bytes with no external-data directory named",
             at("data.bin"))
        .options = {{"import", "bytes"}};
}

}  // namespace hostile
