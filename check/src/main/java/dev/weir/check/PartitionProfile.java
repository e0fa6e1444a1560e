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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the partition checks need, read from a directory of date partitions as {@code weir run} and
 * {@code weir replay} write them ({@code DIR/date=YYYY-MM-DD/results.csv} or {@code results.jsonl}):
 * rows per partition, and rows that repeat a {@code (key, window_start, window_end, version)} seen
 * before in any partition. Immutable.
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
    private static final Pattern JSON_FIELD = Pattern.compile("\"(window_start|window_end|key|version)\":(\"[^\"]*\"|-?\\d+)");
    private static final String CSV_HEADER = "window_start,window_end,key,count,sum,min,max,version";
    /** After the header's fixed columns: one column per user aggregation ({@code aggregate}, or one named after each). */
    private static final Pattern AGGREGATE_COLUMNS = Pattern.compile("(,[a-z_][a-z0-9_]{0,63})*");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

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
        int fields = 8; // one more per aggregate column the header names
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null)
            {
                number++;
                if (csv && number == 1 && line.startsWith(CSV_HEADER) && AGGREGATE_COLUMNS.matcher(line.substring(CSV_HEADER.length())).matches())
                {
                    fields = line.split(",", -1).length;
                    continue;
                }
                if (line.isEmpty())
                {
                    continue;
                }
                final String identity = csv ? csvIdentity(line, fields) : jsonIdentity(line);
                if (identity == null)
                {
                    throw new IllegalArgumentException(file + " line " + number + " is not a results row: " + line);
                }
                rows++;
                if (!seen.add(identity))
                {
                    duplicates++;
                }
            }
        }
        return new long[] {rows, duplicates};
    }

    private static String csvIdentity(final String line, final int width)
    {
        final String[] fields = line.split(",", -1);
        if (fields.length != width || !isLong(fields[0]) || !isLong(fields[1]) || fields[2].isEmpty() || !isLong(fields[7]))
        {
            return null;
        }
        for (int i = 8; i < width; i++)
        {
            if (!NUMBER.matcher(fields[i]).matches())
            {
                return null; // an aggregate: a count, or a mean at the value's scale
            }
        }
        return fields[2] + '|' + fields[0] + '|' + fields[1] + '|' + fields[7];
    }

    private static String jsonIdentity(final String line)
    {
        final Map<String, String> fields = new TreeMap<>();
        final Matcher field = JSON_FIELD.matcher(line);
        while (field.find())
        {
            fields.put(field.group(1), field.group(2));
        }
        if (fields.size() != 4 || !line.startsWith("{") || !line.endsWith("}"))
        {
            return null;
        }
        return fields.get("key") + '|' + fields.get("window_start") + '|' + fields.get("window_end") + '|' + fields.get("version");
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
