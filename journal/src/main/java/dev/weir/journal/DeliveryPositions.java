package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import dev.weir.journal.files.FileReplacement;
import dev.weir.journal.files.TextChecksum;
import dev.weir.journal.schema.NewerFormatException;

/**
 * The local records of the deliveries that read a pipeline's output journal across runs (a PostgreSQL sink),
 * each saying the first output position it may still read, so that retention can tell what they need
 * without reaching (or holding credentials for) the system they deliver into.
 * <p>
 * A pipeline's records are the files {@code deliveries/TABLE-HASH.position} in its directory
 * ({@link JournalDirectory#pipelineRoot()}), HASH being 8 hex digits of the CRC32C of the target. Each is
 * UTF-8 text, one {@code name=value} a line, in this order:
 * <pre>
 * format=weir-delivery-position
 * version=1
 * table=weir_results
 * target=jdbc:postgresql://127.0.0.1:5432/weir
 * position=128562686295277568
 * updated=2026-12-01T18:20:03.123Z
 * crc=1a2b3c4d
 * </pre>
 * {@code target} is the JDBC URL without its parameters (no credentials); {@code position} is the last
 * output position delivered (committed), or {@value #EVERYTHING} before the first commit: the delivery
 * then needs every output. {@code crc} is the CRC32C, in hex, of the bytes of the lines before it.
 * <p>
 * Writers write a temporary file, rename it over the record, and, for {@link #register} (which must
 * precede the first read of the output journal, and any read from a lower position than the one recorded),
 * force the file and the directory. An advance after a commit is not forced: a crash may leave the
 * previous record, or a torn one. A reader therefore takes a record it cannot read in full (torn,
 * truncated, of another format or version, CRC mismatch) as {@link DeliveryPosition#needsEverything()
 * needing every output}, never as needing none; but one of a version above {@value #FORMAT_VERSION}, written by a
 * newer Weir, is refused ({@link NewerFormatException}). A delivery that is abandoned holds its position until its
 * record is deleted by hand.
 * <p>
 * Stateless; every method reads or writes the disk when called. Safe to call from any thread, but one
 * writer per record.
 */
public final class DeliveryPositions
{
    /** The directory, in a pipeline's directory, that holds its delivery records. */
    public static final String DIRECTORY = "deliveries";
    /** How a record's file name ends. */
    public static final String SUFFIX = ".position";
    /** The first line of a record. */
    public static final String FORMAT_LINE = "format=weir-delivery-position";
    /** The format version this class writes, and the newest it reads. */
    public static final int FORMAT_VERSION = 1;
    /** The position of a delivery that needs every output (registered, nothing committed yet). */
    public static final long EVERYTHING = -1;

    private static final String[] KEYS = {"format", "version", "table", "target", "position", "updated", "crc"};

    private DeliveryPositions()
    {
    }

    /**
     * What one record says.
     *
     * @param file     the record's file.
     * @param table    the table delivered into, or null if the record cannot be read.
     * @param target   the JDBC URL without parameters, or null if the record cannot be read.
     * @param position the last output position delivered, or {@value #EVERYTHING} (also when the record cannot
     *                 be read).
     * @param updated  when it was last written, or null if the record cannot be read.
     * @param problem  why the record cannot be read, or null if it can.
     */
    public record DeliveryPosition(Path file, String table, String target, long position, Instant updated, String problem)
    {
        /**
         * @return true if the delivery may read every output: registered before its first commit, or a record
         *         that cannot be read.
         */
        public boolean needsEverything()
        {
            return position < 0;
        }
    }

    /**
     * @param pipelineRoot a pipeline's directory.
     * @param table        the table delivered into.
     * @param target       the JDBC URL without parameters.
     * @return the file of that delivery's record.
     */
    public static Path file(final Path pipelineRoot, final String table, final String target)
    {
        final CRC32C crc = new CRC32C();
        crc.update(target.getBytes(StandardCharsets.UTF_8));
        return pipelineRoot.resolve(DIRECTORY).resolve(table + "-" + String.format("%08x", crc.getValue()) + SUFFIX);
    }

    /**
     * @param jdbcUrl a JDBC URL.
     * @return it without its parameters and without any user information, as a record's target.
     */
    public static String target(final String jdbcUrl)
    {
        final int query = jdbcUrl.indexOf('?');
        String target = query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
        final int authority = target.indexOf("//");
        final int at = authority < 0 ? -1 : target.indexOf('@', authority);
        final int path = authority < 0 ? -1 : target.indexOf('/', authority + 2);
        if (at >= 0 && (path < 0 || at < path))
        {
            target = target.substring(0, authority + 2) + target.substring(at + 1);
        }
        return target;
    }

    /**
     * Record durably that a delivery needs the outputs after {@code position}: the file and the directory
     * are forced before this returns. Call it before the delivery first reads the output journal, with
     * {@value #EVERYTHING} if nothing is known yet, and again before it reads from a lower position than the
     * one recorded.
     *
     * @param pipelineRoot the pipeline's directory ({@code deliveries/} is created in it if missing).
     * @param table        the table delivered into.
     * @param target       the JDBC URL without parameters ({@link #target(String)}).
     * @param position     the last output position delivered, or {@value #EVERYTHING}.
     * @param nowMillis    the time to record.
     * @return the record's file.
     * @throws UncheckedIOException if it cannot be written.
     */
    public static Path register(final Path pipelineRoot, final String table, final String target, final long position, final long nowMillis)
    {
        return write(pipelineRoot, table, target, position, nowMillis, true);
    }

    /**
     * Record, without forcing, that a delivery committed the outputs up to {@code position}. A crash may
     * lose it (the previous record stays, which needs more) or tear it (a reader then takes it as needing
     * every output).
     *
     * @param pipelineRoot the pipeline's directory.
     * @param table        the table delivered into.
     * @param target       the JDBC URL without parameters ({@link #target(String)}).
     * @param position     the last output position delivered.
     * @param nowMillis    the time to record.
     * @return the record's file.
     * @throws UncheckedIOException if it cannot be written.
     */
    public static Path advance(final Path pipelineRoot, final String table, final String target, final long position, final long nowMillis)
    {
        return write(pipelineRoot, table, target, position, nowMillis, false);
    }

    private static Path write(
        final Path pipelineRoot, final String table, final String target, final long position, final long nowMillis, final boolean force)
    {
        checkText("table", table);
        checkText("target", target);
        if (table.indexOf('/') >= 0 || table.indexOf('\\') >= 0 || table.startsWith("."))
        {
            throw new IllegalArgumentException("a delivery record's table cannot name a file: '" + table + "'");
        }
        final Path file = file(pipelineRoot, table, target);
        final Path directory = file.getParent();
        final String body = FORMAT_LINE + "\nversion=" + FORMAT_VERSION + "\ntable=" + table + "\ntarget=" + target + "\nposition="
            + Math.max(EVERYTHING, position) + "\nupdated=" + Instant.ofEpochMilli(nowMillis) + "\n";
        final byte[] bytes = TextChecksum.seal(body, true);
        final Path temp = directory.resolve("." + file.getFileName() + ".tmp");
        try
        {
            if (!Files.isDirectory(directory))
            {
                Files.createDirectories(directory);
                if (force)
                {
                    FileReplacement.forceDirectory(directory.getParent());
                }
            }
            FileReplacement.replace(file, temp, force, ByteBuffer.wrap(bytes));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the delivery record " + file, ex);
        }
        return file;
    }

    /**
     * Read every delivery record of a pipeline. Temporary files (a write killed before its rename) and files
     * not ending in {@value #SUFFIX} are not records.
     *
     * @param pipelineRoot the pipeline's directory.
     * @return its records, sorted by file name; empty if it has none.
     * @throws UncheckedIOException if the directory cannot be listed.
     */
    public static List<DeliveryPosition> read(final Path pipelineRoot)
    {
        final Path directory = pipelineRoot.resolve(DIRECTORY);
        final List<DeliveryPosition> records = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return records;
        }
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            for (final Path entry : entries)
            {
                final String name = entry.getFileName().toString();
                if (name.endsWith(SUFFIX) && !name.startsWith("."))
                {
                    files.add(entry);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
        files.sort(null);
        for (final Path file : files)
        {
            records.add(readFile(file));
        }
        return records;
    }

    /**
     * Read one record; one that cannot be read in full says so in {@link DeliveryPosition#problem()} and needs
     * every output.
     *
     * @param file the record's file.
     * @return what it says.
     * @throws NewerFormatException if it is of a version above {@value #FORMAT_VERSION} (a whole {@code version=} line):
     *                              written by a newer Weir, whose needs this build cannot tell.
     */
    public static DeliveryPosition readFile(final Path file)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            return unreadable(file, "it cannot be read (" + ex + ")");
        }
        final String text = new String(bytes, StandardCharsets.UTF_8);
        final String[] lines = text.split("\n", -1);
        if (lines.length > 2 && FORMAT_LINE.equals(lines[0]) && lines[1].matches("version=[0-9]{1,9}"))
        {
            final int version = Integer.parseInt(lines[1].substring("version=".length()));
            if (version > FORMAT_VERSION)
            {
                throw new NewerFormatException("delivery record", file, version, FORMAT_VERSION);
            }
        }
        if (lines.length != KEYS.length + 1 || !lines[KEYS.length].isEmpty())
        {
            return unreadable(file, "it has " + (lines.length - 1) + " complete lines, not " + KEYS.length + " (torn or not a delivery record)");
        }
        final String[] values = new String[KEYS.length];
        for (int i = 0; i < KEYS.length; i++)
        {
            final String prefix = KEYS[i] + "=";
            if (!lines[i].startsWith(prefix))
            {
                return unreadable(file, "line " + (i + 1) + " is not '" + prefix + "...'");
            }
            values[i] = lines[i].substring(prefix.length());
        }
        if (!FORMAT_LINE.equals(lines[0]))
        {
            return unreadable(file, "it is not a delivery record (" + lines[0] + ")");
        }
        if (!String.valueOf(FORMAT_VERSION).equals(values[1]))
        {
            return unreadable(file, "it is of version " + values[1] + ", this build reads version " + FORMAT_VERSION);
        }
        final String body = text.substring(0, text.lastIndexOf("crc="));
        if (!TextChecksum.of(body, true).equals(values[6]))
        {
            return unreadable(file, "its CRC does not match its content");
        }
        final long position;
        final Instant updated;
        try
        {
            position = Long.parseLong(values[4]);
            updated = Instant.parse(values[5]);
        }
        catch (final RuntimeException ex)
        {
            return unreadable(file, "a field cannot be parsed (" + ex.getMessage() + ")");
        }
        if (position < EVERYTHING)
        {
            return unreadable(file, "its position " + position + " is below " + EVERYTHING);
        }
        return new DeliveryPosition(file, values[2], values[3], position, updated, null);
    }

    private static DeliveryPosition unreadable(final Path file, final String problem)
    {
        return new DeliveryPosition(file, null, null, EVERYTHING, null, problem);
    }

    private static void checkText(final String what, final String text)
    {
        if (text == null || text.isEmpty() || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0)
        {
            throw new IllegalArgumentException("a delivery record's " + what + " must be one non-empty line: '" + text + "'");
        }
    }
}
