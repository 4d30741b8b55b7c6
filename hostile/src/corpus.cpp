// Writing the hostile corpus and its manifest (hostile/README.md, "The manifest").
// Deterministic by construction: entries are written in the order they were added,
// the manifest is sorted by file name and its objects by key.
#include "corpus.hpp"
#include "rules_md.hpp"  // generated from docs/rules.md (hostile/CMakeLists.txt)

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <stdexcept>
#include <system_error>
#include <sys/stat.h>
#include <unistd.h>

namespace hostile {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& ch : out) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    return out;
}

const std::set<std::string> known_kinds = {"Malformed", "InvalidModel", "Unsupported", "ExternalData", "Io"};

void fail(const std::string& what) { throw std::runtime_error("hostile-gen: " + what); }

void write_bytes(const fs::path& p, std::string_view bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) fail("cannot write " + p.string());
}

/// Removes whatever is at p (file, link or folder) so the entry is written fresh.
void clear(const fs::path& p) {
    std::error_code ec;
    if (fs::symlink_status(p, ec).type() != fs::file_type::not_found) fs::remove_all(p, ec);
}

}  // namespace

Case& Corpus::add_case(bool accept, std::string_view kind, std::string_view name, Rule rule, std::string why) {
    if (!accept && !known_kinds.count(std::string(kind))) fail("unknown kind " + std::string(kind));
    (void)rule_text(rule.id);  // an ID docs/rules.md does not define stops the generator
    Case k;
    k.accept = accept;
    k.kind = accept ? "" : std::string(kind);
    const bool ort = name.ends_with(".ort");  // .ort cases (cases_ort.cpp) name their extension
    k.file = (accept ? std::string("accept") : lower(kind)) + "-" +
             std::string(ort ? name.substr(0, name.size() - 4) : name) + (ort ? ".ort" : ".onnx");
    k.rule = rule;
    k.why = std::move(why);
    for (const Case& other : cases_)
        if (other.file == k.file) fail("duplicate case " + k.file);
    cases_.push_back(std::move(k));
    return cases_.back();
}

Case& Corpus::refuse(std::string_view kind, std::string_view name, Rule rule, std::string why, std::string bytes) {
    Case& k = add_case(false, kind, name, rule, std::move(why));
    entries_.push_back({k.file, Entry::Type::File, std::move(bytes), {}, 0, false});
    return k;
}

Case& Corpus::accept(std::string_view name, Rule rule, std::string why, std::string bytes, json facts) {
    Case& k = add_case(true, "", name, rule, std::move(why));
    k.facts = std::move(facts);
    entries_.push_back({k.file, Entry::Type::File, std::move(bytes), {}, 0, false});
    return k;
}

Case& Corpus::refuse_entry(std::string_view kind, std::string_view name, Rule rule, std::string why, Entry entry) {
    Case& k = add_case(false, kind, name, rule, std::move(why));
    entry.path = k.file;
    entries_.push_back(std::move(entry));
    return k;
}

Case& Corpus::sparse_case(bool accept, std::string_view kind, std::string_view name, Rule rule, std::string why,
                          std::string head, uint64_t size, json facts) {
    Case& k = add_case(accept, kind, name, rule, std::move(why));
    if (accept) k.facts = std::move(facts);
    k.generated_only = true;
    entries_.push_back({k.file, Entry::Type::Sparse, std::move(head), {}, size, true});
    return k;
}

void Corpus::side_file(std::string path, std::string bytes) {
    entries_.push_back({std::move(path), Entry::Type::File, std::move(bytes), {}, 0, false});
}
void Corpus::side_dir(std::string path) {
    entries_.push_back({std::move(path), Entry::Type::Directory, {}, {}, 0, false});
}
void Corpus::side_symlink(std::string path, std::string target) {
    entries_.push_back({std::move(path), Entry::Type::Symlink, {}, std::move(target), 0, false});
}
void Corpus::side_hardlink(std::string path, std::string existing) {
    // git stores a hard link as a second regular file with the same bytes, which imports
    // the same way; only a generated folder has the link itself.
    entries_.push_back({std::move(path), Entry::Type::HardLink, {}, std::move(existing), 0, false});
}
void Corpus::side_sparse(std::string path, uint64_t size) {
    entries_.push_back({std::move(path), Entry::Type::Sparse, {}, {}, size, true});
}
void Corpus::side_fifo(std::string path) { entries_.push_back({std::move(path), Entry::Type::Fifo, {}, {}, 0, true}); }

bool Corpus::is_generated_only(const Entry& e) const {
    if (e.generated_only) return true;
    return std::any_of(cases_.begin(), cases_.end(),
                       [&](const Case& k) { return k.generated_only && k.file == e.path; });
}

json Corpus::manifest() const {
    std::vector<const Case*> sorted;
    for (const Case& k : cases_) sorted.push_back(&k);
    std::sort(sorted.begin(), sorted.end(), [](const Case* a, const Case* b) { return a->file < b->file; });
    json cases = json::array();
    for (const Case* k : sorted) {
        json j;
        j["file"] = k->file;
        j["expect"] = k->accept ? "accept" : "refuse";
        if (!k->accept) j["kind"] = k->kind;
        if (!k->accept) j["phase"] = refusal_phase(*k);
        j["section"] = k->rule.section;
        j["rule_id"] = k->rule.id;
        j["rule"] = rule_text(k->rule.id);
        j["why"] = k->why;
        if (k->accept) j["facts"] = k->facts.is_null() ? json::object() : k->facts;
        if (!k->options.is_null()) j["options"] = k->options;
        if (!k->refusal_names.empty()) j["message_contains"] = k->refusal_names;
        if (k->generated_only) j["generated_only"] = true;
        if (k->endless) j["endless"] = true;
        cases.push_back(std::move(j));
    }
    json side = json::array();
    std::vector<const Entry*> entries;
    for (const Entry& e : entries_) {
        bool is_case = std::any_of(cases_.begin(), cases_.end(), [&](const Case& k) { return k.file == e.path; });
        if (!is_case) entries.push_back(&e);
    }
    std::sort(entries.begin(), entries.end(), [](const Entry* a, const Entry* b) { return a->path < b->path; });
    for (const Entry* e : entries) {
        json j;
        j["path"] = e->path;
        switch (e->type) {
        case Entry::Type::File: j["type"] = "file"; break;
        case Entry::Type::Directory: j["type"] = "directory"; break;
        case Entry::Type::Symlink: j["type"] = "symlink"; j["target"] = e->target; break;
        case Entry::Type::HardLink: j["type"] = "hardlink"; j["target"] = e->target; break;
        case Entry::Type::Sparse: j["type"] = "sparse"; j["size"] = e->size; break;
        case Entry::Type::Fifo: j["type"] = "fifo"; break;
        }
        if (is_generated_only(*e)) j["generated_only"] = true;
        side.push_back(std::move(j));
    }
    json m;
    m["format"] = "onnx-gauntlet hostile corpus, version 1";
    m["cases"] = std::move(cases);
    m["side_files"] = std::move(side);
    return m;
}

void Corpus::write(const fs::path& out, bool committed_only) const {
    fs::create_directories(out);
    for (const Entry& e : entries_) {
        if (committed_only && is_generated_only(e)) continue;
        fs::path p = out / e.path;
        clear(p);
        fs::create_directories(p.parent_path());
        switch (e.type) {
        case Entry::Type::File: write_bytes(p, e.bytes); break;
        case Entry::Type::Directory: fs::create_directories(p); break;
        case Entry::Type::Symlink: fs::create_symlink(e.target, p); break;
        case Entry::Type::HardLink: fs::create_hard_link(out / e.target, p); break;
        case Entry::Type::Fifo:
            if (::mkfifo(p.c_str(), 0644) != 0) fail("cannot make the FIFO " + p.string());
            break;
        case Entry::Type::Sparse: {
            write_bytes(p, e.bytes);
            // A hole, not written zeros: the file costs no disk and no write time.
            if (::truncate(p.c_str(), static_cast<off_t>(e.size)) != 0) fail("cannot extend " + p.string());
            break;
        }
        }
    }
    write_bytes(out / "manifest.json", manifest().dump(1) + "\n");
}

std::map<std::string, std::string> parse_rules(std::string_view markdown) {
    std::map<std::string, std::string> out;
    size_t pos = 0;
    while (pos < markdown.size()) {
        size_t end = markdown.find('\n', pos);
        if (end == std::string_view::npos) end = markdown.size();
        std::string_view line = markdown.substr(pos, end - pos);
        pos = end + 1;
        // A rule row: "| X12 | text |" (an upper-case letter, then digits).
        if (line.size() < 4 || line.substr(0, 2) != "| " || line[2] < 'A' || line[2] > 'Z') continue;
        size_t i = 3;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
        if (i == 3 || line.substr(i, 3) != " | " || line.back() != '|') continue;
        std::string id(line.substr(2, i - 2));
        std::string_view text = line.substr(i + 3, line.size() - 1 - (i + 3));
        while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
        if (text.empty()) fail("rule " + id + " has no text");
        if (!out.emplace(id, std::string(text)).second) fail("rule " + id + " is defined twice in docs/rules.md");
    }
    return out;
}

const std::map<std::string, std::string>& project_rules() {
    static const std::map<std::string, std::string> rules = parse_rules(embedded_rules_md);
    return rules;
}

const std::string& rule_text(std::string_view id) {
    const auto& rules = project_rules();
    auto it = rules.find(std::string(id));
    if (it == rules.end()) fail("rule " + std::string(id) + " is not defined in docs/rules.md");
    return it->second;
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(bytes.data(), bytes.size(), digest, &n, EVP_sha256(), nullptr)) fail("SHA-256 failed");
    static const char hex[] = "0123456789abcdef";
    std::string s;
    for (unsigned i = 0; i < n; ++i) {
        s += hex[digest[i] >> 4];
        s += hex[digest[i] & 15];
    }
    return s;
}

Corpus build_corpus() {
    Corpus c;
    add_wire_cases(c);
    add_message_cases(c);
    add_tensor_cases(c);
    add_graph_cases(c);
    add_external_cases(c);
    add_io_cases(c);
    add_published_cases(c);
    add_published_2026_cases(c);
    add_ort_cases(c);
    add_ort_shared_cases(c);
    add_aliased_payload_cases(c);
    return c;
}

}  // namespace hostile
