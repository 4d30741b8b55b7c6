// Hostile cases for the Io kind (spec sections 6 and 7): model paths the operating
// system cannot read as a file (a folder, a dangling link, a link loop, a FIFO), and
// reading a tensor's bytes after the model was closed.
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

void add_io_cases(Corpus& c) {
    Entry dir;
    dir.type = Entry::Type::Directory;
    c.refuse_entry("Io", "model-is-a-folder", r::os_cannot_read,
                   "the .onnx path is a folder: the OS cannot read it as a file", dir);
    // git does not keep empty folders; a file inside keeps this one.
    c.side_file("io-model-is-a-folder.onnx/keep", "a folder named like a model\n");
    Entry dangling;
    dangling.type = Entry::Type::Symlink;
    dangling.target = "no-such-model.onnx";
    c.refuse_entry("Io", "model-dangling-link", r::os_cannot_read,
                   "the .onnx path is a symbolic link to nothing: open fails", dangling);
    Entry loop;
    loop.type = Entry::Type::Symlink;
    loop.target = "io-model-link-loop.onnx";
    c.refuse_entry("Io", "model-link-loop", r::os_cannot_read,
                   "the .onnx path is a link to itself: open fails with ELOOP", loop);
    // A FIFO where the model should be: a reader that opens it blocking waits for a writer
    // forever. git cannot hold a FIFO, so the case is generated only.
    Entry fifo;
    fifo.type = Entry::Type::Fifo;
    fifo.generated_only = true;
    Case& k = c.refuse_entry("Io", "model-is-a-fifo", r::os_cannot_read,
                             "the .onnx path is a FIFO: not a regular file, and a blocking open waits forever", fifo);
    k.generated_only = true;
    k.endless = true;
    c.accept("bytes-after-close", r::closed, "imports; after Model::close() reading the initializer's bytes throws Io",
             model_with_initializer(ob::tensor_raw("T", 1, {2}, floats_le({1, 2}))),
             {{"bytes_after_close_throws_io", "T"}, {"tensor_sha256", {{"T", sha256_hex(floats_le({1, 2}))}}}});
}

}  // namespace hostile
