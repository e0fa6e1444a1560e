package dev.weir.journal.retention;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.RetentionLock;
import dev.weir.journal.files.FileReplacement;
import dev.weir.journal.files.TextChecksum;
import dev.weir.journal.schema.NewerFormatException;

/**
 * What retention removed from the start of a pipeline's output journal: the file {@code results.base} in the
 * pipeline's directory ({@link JournalDirectory#pipelineRoot()}), written and forced before the first of
 * those cycles is removed, and required once present. Readers use it to count what the output journal held
 * ({@link #removedResults()} plus what is left) and to refuse what would silently lose rows (an export of
 * every result, a delivery into a new table), naming what was removed and the archive that holds it.
 * <p>
 * UTF-8 text, one {@code name=value} a line, in this order:
 * <pre>
 * format=weir-results-base
 * version=1
 * journal=JOURNAL-ID
 * first=FIRST RETAINED OUTPUT POSITION
 * outputs=OUTPUTS REMOVED (results and late events)
 * results=RESULTS REMOVED
 * bytes=BYTES REMOVED
 * window=GREATEST WINDOW START OF A REMOVED RESULT (epoch ms, or none)
 * archive=ARCHIVE DIRECTORY (or none: deleted)
 * updated=ISO-8601 INSTANT
 * crc=CRC32C IN HEX OF THE LINES BEFORE
 * </pre>
 * The counts add up over retention steps. Immutable record; the static methods are stateless and thread-safe
 * (one retention step writes at a time: {@link RetentionLock}).
 *
 * @param journalId          the journal's id.
 * @param firstPosition      the first output position retained: every output before it was removed.
 * @param removedOutputs     outputs removed so far.
 * @param removedResults     results among them.
 * @param removedBytes       bytes of cycle files removed.
 * @param maxRemovedWindowStart the greatest window start of a removed result, or {@link Long#MIN_VALUE} if none.
 * @param archive            where the removed cycles were moved, or null if they were deleted.
 * @param updated            when it was written.
 */
public record OutputHistory(
    String journalId, long firstPosition, long removedOutputs, long removedResults, long removedBytes, long maxRemovedWindowStart,
    Path archive, Instant updated)
{
    /** The file's name in the pipeline's directory. */
    public static final String FILE = "results.base";
    private static final String FORMAT_LINE = "format=weir-results-base";
    /** The format version this build writes, and the newest it reads. */
    public static final int VERSION = 1;
    private static final String[] KEYS = {"format", "version", "journal", "first", "outputs", "results", "bytes", "window", "archive", "updated", "crc"};

    /**
     * @param pipeline a journal, as one pipeline sees it.
     * @return what was removed from its output journal, or empty if nothing ever was.
     * @throws JournalRefusedException if the file is there but torn, corrupt or of another journal.
     * @throws NewerFormatException    if it is of a version above {@value #VERSION}: written by a newer Weir.
     */
    public static Optional<OutputHistory> read(final JournalDirectory pipeline)
    {
        final Path file = pipeline.pipelineRoot().resolve(FILE);
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException none)
        {
            return Optional.empty();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        refuseNewer(lines, file);
        final String problem = problem(lines);
        if (problem != null)
        {
            throw new JournalRefusedException(pipeline.root(), "its output history " + file + " " + problem
                + "; it is required since retention removed the output journal's oldest cycles: restore it from a backup");
        }
        final OutputHistory history = new OutputHistory(
            value(lines, 2), Long.parseLong(value(lines, 3)), Long.parseLong(value(lines, 4)), Long.parseLong(value(lines, 5)),
            Long.parseLong(value(lines, 6)), "none".equals(value(lines, 7)) ? Long.MIN_VALUE : Long.parseLong(value(lines, 7)),
            "none".equals(value(lines, 8)) ? null : Path.of(value(lines, 8)), Instant.parse(value(lines, 9)));
        if (!history.journalId.equals(pipeline.id()))
        {
            throw new JournalRefusedException(pipeline.root(), "its output history " + file + " is of another journal ("
                + history.journalId + ")");
        }
        return Optional.of(history);
    }

    /**
     * Write it, durably (forced before this returns), replacing the previous one.
     *
     * @param pipeline the journal, as the pipeline sees it.
     * @throws UncheckedIOException if it cannot be written; the previous one is then left as it was.
     */
    public void write(final JournalDirectory pipeline)
    {
        final String body = FORMAT_LINE + "\nversion=" + VERSION + "\njournal=" + journalId + "\nfirst=" + firstPosition
            + "\noutputs=" + removedOutputs + "\nresults=" + removedResults + "\nbytes=" + removedBytes
            + "\nwindow=" + (maxRemovedWindowStart == Long.MIN_VALUE ? "none" : Long.toString(maxRemovedWindowStart))
            + "\narchive=" + (archive == null ? "none" : archive.toAbsolutePath().toString())
            + "\nupdated=" + updated + "\n";
        final Path file = pipeline.pipelineRoot().resolve(FILE);
        try
        {
            Files.createDirectories(file.getParent());
            FileReplacement.replace(file, TextChecksum.seal(body, false), true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /** A whole {@code version=} line above {@value #VERSION} after the format line: written by a newer Weir. */
    private static void refuseNewer(final List<String> lines, final Path file)
    {
        if (lines.size() > 2 && FORMAT_LINE.equals(lines.get(0)) && lines.get(1).matches("version=[0-9]{1,9}"))
        {
            final int version = Integer.parseInt(value(lines, 1));
            if (version > VERSION)
            {
                throw new NewerFormatException("output history", file, version, VERSION);
            }
        }
    }

    private static String problem(final List<String> lines)
    {
        if (lines.size() != KEYS.length)
        {
            return "is torn (" + lines.size() + " lines, not " + KEYS.length + ")";
        }
        if (!FORMAT_LINE.equals(lines.get(0)))
        {
            return "is not an output history";
        }
        for (int i = 0; i < KEYS.length; i++)
        {
            if (!lines.get(i).startsWith(KEYS[i] + "="))
            {
                return "is corrupt (line " + (i + 1) + " is not " + KEYS[i] + ")";
            }
        }
        if (!Integer.toString(VERSION).equals(value(lines, 1)))
        {
            return "is of format version " + value(lines, 1) + ", not " + VERSION;
        }
        final StringBuilder body = new StringBuilder();
        for (int i = 0; i < KEYS.length - 1; i++)
        {
            body.append(lines.get(i)).append('\n');
        }
        if (!TextChecksum.of(body.toString(), false).equals(value(lines, KEYS.length - 1)))
        {
            return "is corrupt (its checksum does not match)";
        }
        try
        {
            for (int i = 3; i <= 6; i++)
            {
                Long.parseLong(value(lines, i));
            }
            if (!"none".equals(value(lines, 7)))
            {
                Long.parseLong(value(lines, 7));
            }
            Instant.parse(value(lines, 9));
        }
        catch (final RuntimeException ex)
        {
            return "is corrupt (" + ex.getMessage() + ")";
        }
        return null;
    }

    private static String value(final List<String> lines, final int index)
    {
        return lines.get(index).substring(KEYS[index].length() + 1);
    }

}
