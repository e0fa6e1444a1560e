package dev.weir.csv;

import dev.weir.journal.EventJournal;

/**
 * The parser an ingest reads its lines with ({@link CsvIngest}): an events CSV's ({@link CsvLineParser}) or a
 * table CSV's ({@link TableCsvParser}). Not thread-safe: one owner thread.
 */
interface IngestLineParser
{
    /**
     * Parse a line from its bytes; a valid line is held for {@link #append}.
     *
     * @param bytes holds the line, without its terminator; not changed.
     * @param start the line's first byte.
     * @param end   one past its last byte.
     * @return null if valid, else the reason it is rejected.
     */
    String parse(byte[] bytes, int start, int end);

    /** @return the text of the last line parsed, or null if it was not decoded (read from its bytes, or not UTF-8). */
    String text();

    /**
     * Append the valid line last parsed, as an ingested line. An event line goes to the journal's bulk appender
     * ({@link EventJournal#batch()}), written with the lines around it; a table row is a document of its own.
     *
     * @param journal            the journal.
     * @param line               the line's number.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return the offset of the last document or event written to the journal, or -1 if none was yet.
     */
    long append(EventJournal journal, long line, long unterminatedLength);
}
