// The hostile corpus as data (hostile/README.md): each
// case is one file named <kind>-<case>.onnx or accept-<case>.onnx, with its expected
// outcome, the spec sentence it exercises and, for accepted files, the facts to check.
// Side files (external data, links, folders) are entries too. Writing is deterministic:
// the same entries give the same bytes, in the same order, on every run.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hostile {

using json = nlohmann::json;  // std::map objects: keys come out sorted, hence stable

/// A rule of docs/rules.md, by its ID, and the spec section it belongs to. Its text is
/// the page's (rule_text).
struct Rule {
    const char* id;
    const char* section;
};

/// The rules docs/rules.md defines: ID -> text, from every `| ID | text |` table row.
/// Throws std::runtime_error when an ID is defined twice.
std::map<std::string, std::string> parse_rules(std::string_view markdown);
/// docs/rules.md as the generator was built with it, parsed once.
const std::map<std::string, std::string>& project_rules();
/// The text of rule `id` in project_rules(); throws std::runtime_error for an undefined ID.
const std::string& rule_text(std::string_view id);

/// One thing written under the output folder.
struct Entry {
    enum class Type { File, Directory, Symlink, HardLink, Sparse, Fifo };
    std::string path;  ///< relative to the output folder, '/'-separated
    Type type = Type::File;
    std::string bytes;   ///< File: the contents; Sparse: the leading bytes
    std::string target;  ///< Symlink: the link text; HardLink: the existing entry's path
    uint64_t size = 0;   ///< Sparse: the file's size (the rest is a hole of zeros)
    bool generated_only = false;  ///< not committed (git cannot hold it, or it is too big)
};

struct Case {
    std::string file;
    bool accept = false;
    std::string kind;  ///< refusals: Malformed, InvalidModel, Unsupported, ExternalData, Io
    Rule rule{};
    std::string why;
    json facts;    ///< accepts: what the imported model must show
    json options;  ///< non-default import options ({"max_nesting": 8}, {"import": "bytes"})
    std::string refusal_names;  ///< refusals: a name the error message must hold in full (D12)
    bool endless = false;  ///< following the reference reads forever or blocks (/dev/zero, a FIFO)
    bool generated_only = false;
};

class Corpus {
public:
    /// A file that must be refused with `kind` ("Malformed", ...). Returns the case for
    /// options or flags.
    Case& refuse(std::string_view kind, std::string_view name, Rule rule, std::string why, std::string bytes);
    /// A file that must import; `facts` says what to check.
    Case& accept(std::string_view name, Rule rule, std::string why, std::string bytes, json facts = json::object());
    /// A case whose .onnx path is not a plain file (a folder, a link): the entry is added
    /// by the caller under the returned file name.
    Case& refuse_entry(std::string_view kind, std::string_view name, Rule rule, std::string why, Entry entry);
    /// A model file bigger than git or memory should hold: `head` then zeros to `size`.
    Case& sparse_case(bool accept, std::string_view kind, std::string_view name, Rule rule, std::string why,
                      std::string head, uint64_t size, json facts = json::object());

    void side_file(std::string path, std::string bytes);
    void side_dir(std::string path);
    void side_symlink(std::string path, std::string target);
    void side_hardlink(std::string path, std::string existing);
    void side_sparse(std::string path, uint64_t size);  ///< generated only
    void side_fifo(std::string path);                   ///< generated only (git cannot hold one)

    const std::vector<Case>& cases() const { return cases_; }
    const std::vector<Entry>& entries() const { return entries_; }

    /// Entries left out of the committed corpus (flagged on the entry or on its case).
    bool is_generated_only(const Entry& e) const;
    json manifest() const;
    /// Writes every entry and manifest.json under out (created if needed). With
    /// committed_only, entries marked generated_only are left out (the manifest is the same).
    void write(const std::filesystem::path& out, bool committed_only) const;

private:
    Case& add_case(bool accept, std::string_view kind, std::string_view name, Rule rule, std::string why);
    std::vector<Case> cases_;
    std::vector<Entry> entries_;
};

/// The phase in which a careful importer refuses `k` (`format`, `wire`, `message`, `tensor`,
/// `graph`, `external`, `ort-verify`, `ort-semantic`; docs/rules.md); "" for an accepted case.
std::string refusal_phase(const Case& k);

/// Lower-case hex SHA-256 of bytes (for tensor facts).
std::string sha256_hex(std::string_view bytes);

// One function per spec section; each adds its cases.
void add_wire_cases(Corpus& c);      // section 1
void add_message_cases(Corpus& c);   // section 2
void add_tensor_cases(Corpus& c);    // section 3
void add_graph_cases(Corpus& c);     // section 4
void add_external_cases(Corpus& c);  // section 5
void add_io_cases(Corpus& c);        // sections 6 and 7
void add_published_cases(Corpus& c); // other importers' published loader bugs not covered above
void add_published_2026_cases(Corpus& c);  // the shapes published in 2026 (docs/rules.md)
void add_ort_cases(Corpus& c);             // the .ort format (docs/rules.md, section O)
void add_ort_shared_cases(Corpus& c);      // .ort objects shared by many references (docs/rules.md O15)
void add_aliased_payload_cases(Corpus& c); // one file range named by many tensors (docs/rules.md E11)

/// Every case of every section.
Corpus build_corpus();

}  // namespace hostile
