/**
 * Files beside the queues, each written one way: {@link dev.weir.journal.files.FileReplacement}, the one
 * atomic replacement (a temporary file beside the target, forced, renamed over it, its directory forced);
 * {@link dev.weir.journal.files.ChecksummedFile} and {@link dev.weir.journal.files.BinaryFields}, the binary
 * formats with a trailing checksum and the fields they share (the string-dictionaries block among them);
 * {@link dev.weir.journal.files.TextChecksum}, the checksum line of the text formats; and the text-file
 * primitives the exports share ({@link dev.weir.journal.files.AtomicTextFile},
 * {@link dev.weir.journal.files.TextBytes}, {@link dev.weir.journal.files.CsvText}).
 * <p>
 * Threading: stateless helpers are thread-safe; a file being written has one writer.
 * <p>
 * The bottom of the journal: it depends on no other Weir package, and on the JDK only.
 */
package dev.weir.journal.files;
