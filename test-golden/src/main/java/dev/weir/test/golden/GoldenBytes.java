package dev.weir.test.golden;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The committed bytes of a module's persistent formats: one file {@code FORMAT-vN.hex} per format and version
 * in {@code src/test/resources/golden-bytes/}, each line one record (a document, a file) in hex, lines starting
 * with {@code #} saying what the record is.
 * <p>
 * {@link #check} compares what a writer writes now with the file of the version it stamps, and fails when the
 * bytes differ while the version is the same: a format that changes takes a new version, with a reader for the
 * old one. A file missing for a version is written only when the system property {@value #WRITE_PROPERTY} is
 * {@code true}, never overwritten. {@link #versions} hands every committed version's records to a test that reads
 * them with today's reader, so that files written by an earlier Weir stay readable.
 * <p>
 * The directory is resolved against the working directory, which Maven's test runner sets to the module's.
 * Stateless apart from the files; thread-safe.
 */
public final class GoldenBytes
{
    /** The system property that allows a missing file to be written. */
    public static final String WRITE_PROPERTY = "weir.golden.write";

    private static final Pattern NAME = Pattern.compile("(.+)-v([0-9]+)\\.hex");

    private final Path directory;

    private GoldenBytes(final Path directory)
    {
        this.directory = directory;
    }

    /** @return the golden bytes of the module under test: {@code src/test/resources/golden-bytes}. */
    public static GoldenBytes ofThisModule()
    {
        return new GoldenBytes(Path.of("src", "test", "resources", "golden-bytes"));
    }

    /**
     * A record the writer writes now, and what it is.
     *
     * @param label what the record is: the fixed input it was written from (one line, no line break).
     * @param bytes its bytes.
     */
    public record Sample(String label, byte[] bytes)
    {
    }

    /**
     * Compare what a format's writer writes now with the committed file of the version it stamps.
     *
     * @param format  the format's file-name stem, e.g. {@code history-base}.
     * @param version the version the writer stamps.
     * @param samples the records the writer wrote from the test's fixed inputs, in order.
     * @throws AssertionError if the file is missing (and may not be written), or its records differ from these.
     */
    public void check(final String format, final int version, final List<Sample> samples)
    {
        final Path file = file(format, version);
        if (!Files.isRegularFile(file))
        {
            if (!Boolean.getBoolean(WRITE_PROPERTY))
            {
                throw new AssertionError("no golden bytes of " + format + " version " + version + " (" + file.toAbsolutePath()
                    + "): record them with -D" + WRITE_PROPERTY + "=true and commit the file");
            }
            write(file, samples);
            return;
        }
        final List<byte[]> committed = records(file);
        for (int i = 0; i < Math.max(committed.size(), samples.size()); i++)
        {
            final byte[] was = i < committed.size() ? committed.get(i) : null;
            final byte[] now = i < samples.size() ? samples.get(i).bytes() : null;
            if (was == null || now == null || !java.util.Arrays.equals(was, now))
            {
                throw new AssertionError("the bytes of " + format + " changed without a new version: add version " + (version + 1)
                    + " with a reader for " + version + " and fixtures (docs/upgrading.md); record " + (i + 1) + " of " + file
                    + (i < samples.size() ? " (" + samples.get(i).label() + ")" : "") + " was\n" + hex(was) + "\nand is now\n"
                    + hex(now) + firstDifference(was, now));
            }
        }
    }

    /**
     * @param format a format's file-name stem.
     * @return the records of every committed version of it, by version: what today's reader must still read.
     * @throws AssertionError if there is none.
     */
    public SortedMap<Integer, List<byte[]>> versions(final String format)
    {
        final SortedMap<Integer, List<byte[]>> versions = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.hex"))
        {
            for (final Path file : files)
            {
                final Matcher name = NAME.matcher(file.getFileName().toString());
                if (name.matches() && name.group(1).equals(format))
                {
                    versions.put(Integer.parseInt(name.group(2)), records(file));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
        if (versions.isEmpty())
        {
            throw new AssertionError("no golden bytes of " + format + " in " + directory.toAbsolutePath());
        }
        return versions;
    }

    /**
     * @param format  a format's file-name stem.
     * @param version one of its versions.
     * @return that version's committed records.
     * @throws AssertionError if there is no such file.
     */
    public List<byte[]> records(final String format, final int version)
    {
        final Path file = file(format, version);
        if (!Files.isRegularFile(file))
        {
            throw new AssertionError("no golden bytes of " + format + " version " + version + " (" + file.toAbsolutePath() + ")");
        }
        return records(file);
    }

    private Path file(final String format, final int version)
    {
        return directory.resolve(format + "-v" + version + ".hex");
    }

    private static List<byte[]> records(final Path file)
    {
        final List<byte[]> records = new ArrayList<>();
        try
        {
            for (final String line : Files.readAllLines(file))
            {
                if (!line.isBlank() && !line.startsWith("#"))
                {
                    records.add(HexFormat.of().parseHex(line.strip()));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        return records;
    }

    private static void write(final Path file, final List<Sample> samples)
    {
        final StringBuilder text = new StringBuilder();
        for (final Sample sample : samples)
        {
            text.append("# ").append(sample.label()).append('\n').append(HexFormat.of().formatHex(sample.bytes())).append('\n');
        }
        try
        {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardOpenOption.CREATE_NEW); // never over a committed file
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static String hex(final byte[] bytes)
    {
        return bytes == null ? "(no record)" : HexFormat.of().formatHex(bytes);
    }

    private static String firstDifference(final byte[] was, final byte[] now)
    {
        if (was == null || now == null)
        {
            return "";
        }
        final int at = java.util.Arrays.mismatch(was, now);
        return "\n(first difference at byte " + at + "; lengths " + was.length + " and " + now.length + ")";
    }
}
