package dev.weir.check;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the partition checks need, read from a directory of date partitions as {@code weir run} and
 * {@code weir replay} write them ({@code DIR/date=YYYY-MM-DD/results.csv} or {@code results.jsonl}):
 * rows per partition, and rows that repeat a {@code (key, window_start, window_end, version)} seen
 * before in any partition. With a {@code kind} column (a pipeline with update or early rows) the kind is
 * part of a row's identity, and an update row's count too (a window gives one update row per event it
 * takes, all of one version, each with a greater count). Rows of named aggregates (no count, sum, min and max:
 * a column per aggregate, empty or JSON null when it has no value) carry nothing that tells key columns from
 * aggregate columns: a row's identity is then all its fields but {@code kind}, and update rows, which need
 * not differ, are not compared. Immutable.
 *
 * @param rowsByDate    result rows per partition date, in date order.
 * @param duplicateRows rows whose (key, window_start, window_end, version) an earlier row had, or
 *                      {@link #UNIQUE_BY_KEY} where the store itself rules repeats out.
 */
public record PartitionProfile(Map<LocalDate, Long> rowsByDate, long duplicateRows)
{
    /** {@link #duplicateRows()} of a store whose key makes rows unique (a PostgreSQL results table): not counted. */
    public static final long UNIQUE_BY_KEY = -1;

    private static final Pattern PARTITION = Pattern.compile("date=(\\d{4}-\\d{2}-\\d{2})");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Pattern JSON_FIELD = Pattern.compile("\"(window_start|window_end|version)\":(-?\\d+)");
    private static final Pattern JSON_KIND = Pattern.compile(",\"kind\":\"(final|update|early)\"");
    private static final Pattern JSON_COUNT = Pattern.compile(",\"count\":(\\d+)");
    private static final Pattern JSON_DEFAULT = Pattern.compile(",\"count\":\\d+,\"sum\":");
    /** The identity of a row that is not compared with any other (an update row of named aggregates): no row's identity is empty. */
    private static final String NOT_COMPARED = "";

    /**
     * The profile of a store whose key makes rows unique, such as a PostgreSQL results table (its primary key
     * is on the key columns and the window): repeats are not counted.
     *
     * @param rowsByDate result rows per date, in date order.
     * @return its profile, with {@link #UNIQUE_BY_KEY} duplicate rows.
     */
    public static PartitionProfile ofUniqueRows(final Map<LocalDate, Long> rowsByDate)
    {
        return new PartitionProfile(rowsByDate, UNIQUE_BY_KEY);
    }

    /**
     * Read every partition under a directory.
     *
     * @param dir the partitions' directory.
     * @return its profile.
     * @throws IllegalArgumentException if the directory is missing, or a partition holds a line that is not a results row
     *                                  (the message names the file and line).
     */
    public static PartitionProfile of(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            throw new IllegalArgumentException("no partitions directory " + dir);
        }
        final Map<LocalDate, Long> rows = new TreeMap<>();
        final Set<String> seen = new HashSet<>();
        long duplicates = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "date=*"))
        {
            final Map<LocalDate, Path> partitions = new TreeMap<>();
            for (final Path entry : entries)
            {
                final Matcher name = PARTITION.matcher(entry.getFileName().toString());
                if (!name.matches() || !Files.isDirectory(entry))
                {
                    continue;
                }
                try
                {
                    partitions.put(LocalDate.parse(name.group(1)), entry);
                }
                catch (final DateTimeParseException ex)
                {
                    throw new IllegalArgumentException("partition " + entry + " is not named date=YYYY-MM-DD");
                }
            }
            for (final Map.Entry<LocalDate, Path> partition : partitions.entrySet())
            {
                final Path csv = partition.getValue().resolve("results.csv");
                final Path jsonl = partition.getValue().resolve("results.jsonl");
                final Path file = Files.isRegularFile(csv) ? csv : Files.isRegularFile(jsonl) ? jsonl : null;
                long count = 0;
                if (file != null)
                {
                    final long[] counted = read(file, file == csv, seen);
                    count = counted[0];
                    duplicates += counted[1];
                }
                rows.put(partition.getKey(), count);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read partitions under " + dir, ex);
        }
        return new PartitionProfile(Collections.unmodifiableMap(rows), duplicates);
    }

    private static long[] read(final Path file, final boolean csv, final Set<String> seen) throws IOException
    {
        long rows = 0;
        long duplicates = 0;
        CsvShape shape = CsvShape.DEFAULT;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null)
            {
                number++;
                if (csv && number == 1 && line.startsWith("window_start,window_end,"))
                {
                    shape = CsvShape.of(line);
                    if (shape == null)
                    {
                        throw new IllegalArgumentException(file + " line 1 is not a results header: " + line);
                    }
                    continue;
                }
                if (line.isEmpty())
                {
                    continue;
                }
                final String identity = csv ? shape.identity(line) : jsonIdentity(line);
                if (identity == null)
                {
                    throw new IllegalArgumentException(file + " line " + number + " is not a results row: " + line);
                }
                rows++;
                if (!identity.isEmpty() && !seen.add(identity))
                {
                    duplicates++;
                }
            }
        }
        return new long[] {rows, duplicates};
    }

    /**
     * The identity of a JSONL row: its key fields (whatever the key columns are called: the text between
     * {@code window_end} and {@code count}; with named aggregates, between {@code window_end} and {@code version}:
     * the key and aggregate fields), window and version.
     */
    private static String jsonIdentity(final String line)
    {
        final Map<String, String> fields = new TreeMap<>();
        final Matcher field = JSON_FIELD.matcher(line);
        while (field.find())
        {
            fields.put(field.group(1), field.group(2));
        }
        final boolean named = !JSON_DEFAULT.matcher(line).find();
        final int keyStart = line.indexOf(',', line.indexOf("\"window_end\":"));
        final int keyEnd = line.indexOf(named ? ",\"version\":" : ",\"count\":");
        if (fields.size() != 3 || !line.startsWith("{") || !line.endsWith("}") || keyStart < 0 || keyEnd <= keyStart)
        {
            return null;
        }
        final String identity = line.substring(keyStart + 1, keyEnd) + '|' + fields.get("window_start") + '|' + fields.get("window_end") + '|'
            + fields.get("version");
        final Matcher kind = JSON_KIND.matcher(line);
        if (!kind.find())
        {
            return identity;
        }
        if (named)
        {
            return namedKindIdentity(identity, kind.group(1));
        }
        final Matcher count = JSON_COUNT.matcher(line);
        return count.find() ? kindIdentity(identity, kind.group(1), count.group(1)) : null;
    }

    /** A row's identity with its kind, and for an update row its count. */
    private static String kindIdentity(final String identity, final String kind, final String count)
    {
        return identity + '|' + kind + (kind.equals("update") ? "|" + count : "");
    }

    /** A named-aggregate row's identity with its kind: none for an update row, which is not compared. */
    private static String namedKindIdentity(final String identity, final String kind)
    {
        return kind.equals("update") ? NOT_COMPARED : identity + '|' + kind;
    }

    /**
     * The fields of a results CSV, from its header: {@code window_start,window_end}, one or more key
     * columns, {@code count,sum,min,max,version}, then {@code kind} with update or early rows, then any
     * aggregate columns; or with named aggregates {@code window_start,window_end}, the key columns and a
     * column per aggregate, then {@code version} and {@code kind} with update or early rows.
     *
     * @param keys     how many key columns; 0 with named aggregates (the header does not tell them from the aggregates).
     * @param valuesTo the end (exclusive) of the fields that identify a row besides its window and version: the key
     *                 fields, and with named aggregates the aggregate fields too.
     * @param versionAt the index of the {@code version} field.
     * @param fields   how many fields a row has.
     * @param withKind whether a {@code kind} column follows {@code version}.
     */
    private record CsvShape(int keys, int valuesTo, int versionAt, int fields, boolean withKind)
    {
        static final CsvShape DEFAULT = new CsvShape(1, 3, 7, 8, false);

        static CsvShape of(final String header)
        {
            final String[] names = header.split(",", -1);
            for (int count = 3; count + 4 < names.length; count++)
            {
                if (names[count].equals("count") && names[count + 1].equals("sum") && names[count + 2].equals("min")
                    && names[count + 3].equals("max") && names[count + 4].equals("version"))
                {
                    return new CsvShape(count - 2, count, count + 4, names.length, count + 5 < names.length && names[count + 5].equals("kind"));
                }
            }
            final boolean withKind = names[names.length - 1].equals("kind");
            final int versionAt = names.length - (withKind ? 2 : 1);
            return versionAt >= 4 && names[versionAt].equals("version") ? new CsvShape(0, versionAt, versionAt, names.length, withKind) : null;
        }

        /** @return whether rows carry named aggregates. */
        boolean named()
        {
            return keys == 0;
        }

        /** @return a row's key fields, window and version, or null if it is not a row of this shape. */
        String identity(final String line)
        {
            final List<String> fields = RowFields.split(line);
            if (fields == null || fields.size() != this.fields || !isLong(fields.get(0)) || !isLong(fields.get(1))
                || !isLong(fields.get(versionAt)))
            {
                return null;
            }
            final int kindAt = withKind ? versionAt + 1 : -1;
            if (withKind && !fields.get(kindAt).matches("final|update|early"))
            {
                return null;
            }
            for (int i = named() ? fields.size() : keys + 2; i < fields.size(); i++)
            {
                if (i != kindAt && !NUMBER.matcher(fields.get(i)).matches())
                {
                    return null; // count, sum, min, max, version and the aggregates are numbers (a decimal at its scale)
                }
            }
            final StringBuilder identity = new StringBuilder();
            for (int k = 2; k < valuesTo; k++)
            {
                if (k < keys + 2 && fields.get(k).isEmpty())
                {
                    return null;
                }
                identity.append(fields.get(k)).append('|');
            }
            identity.append(fields.get(0)).append('|').append(fields.get(1)).append('|').append(fields.get(versionAt));
            if (!withKind)
            {
                return identity.toString();
            }
            return named() ? namedKindIdentity(identity.toString(), fields.get(kindAt))
                : kindIdentity(identity.toString(), fields.get(kindAt), fields.get(keys + 2));
        }
    }

    private static boolean isLong(final String text)
    {
        try
        {
            Long.parseLong(text);
            return true;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }
}
