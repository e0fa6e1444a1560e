package dev.weir.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import dev.weir.csv.TableCsvParser;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.kafka.OutputHeaders;
import dev.weir.kafka.TableRecords;
import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Kafka side of the scale-out tests: the broker {@code ./weir test} starts (scripts/test-kafka.sh; a test
 * skips without it unless {@code WEIR_REQUIRE_KAFKA=1}), topics with unique names, a seeded stream of card
 * payments produced keyed by card, the reference rows of each partition (a bounded {@code weir run} of its records
 * as a file of its own) and the rows committed to an output topic, read {@code read_committed}. Not thread-safe.
 */
final class KafkaCluster implements AutoCloseable
{
    static final long START = 1_764_576_000_000L; // 2025-12-01T08:00:00Z
    static final long FLUSH_TIME = START + 86_400_000L;
    static final String[] WINDOW_FLAGS = {"--window", "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s", "--late", "side"};

    final String bootstrap;
    final Admin admin;
    /** If above 0, {@link #committed} checks that each output record's key is the row's key, its first this many fields after two. */
    int keyFields;
    /** The output records {@link #committed} read whose key was not the row's key (if {@link #keyFields} is above 0). */
    final List<String> keyMismatches = new ArrayList<>();

    /**
     * One record: its partition, key and value; with a table, a row of that table (the record has the header
     * {@link TableRecords#HEADER}, its value is a table CSV line ending with its op field), else an event.
     */
    record Line(int partition, String key, String value, String table)
    {
        /** An event's record. */
        Line(final int partition, final String key, final String value)
        {
            this(partition, key, value, null);
        }
    }

    /** The rows of one partition, results and late events apart, in order. */
    record Rows(List<String> results, List<String> late)
    {
    }

    KafkaCluster()
    {
        bootstrap = KafkaBroker.bootstrap();
        admin = KafkaBroker.admin(bootstrap);
    }

    String topic(final String prefix, final int partitions)
    {
        return KafkaTestBroker.createTopic(prefix, partitions);
    }

    /**
     * Card payments: event time 1 ms every 2 records; 6% up to 2 s out of order, 0.4% 3 to 5 s late (re-firing), 0.2% 20 to
     * 60 s late (side output); 0.1% values that do not parse and 0.05% whose key is not the card; then a far-future
     * record per partition that closes every window.
     */
    static List<Line> payments(final int partitions, final int count, final int cards, final long seed)
    {
        final Random random = new Random(seed);
        final List<Line> lines = new ArrayList<>(count + partitions);
        for (int i = 0; i < count; i++)
        {
            final int card = random.nextInt(5) == 0 ? random.nextInt(cards / 5) : random.nextInt(cards);
            final String key = "card-" + card;
            final int partition = Math.floorMod(key.hashCode(), partitions);
            final int roll = random.nextInt(1000);
            long time = START + i / 2;
            if (roll < 60)
            {
                time -= random.nextInt(2_000);
            }
            else if (roll < 64)
            {
                time -= 3_000 + random.nextInt(2_000);
            }
            else if (roll < 66)
            {
                time -= 20_000 + random.nextInt(40_000);
            }
            final int bad = random.nextInt(10_000);
            final String value = bad < 10 ? i + ",not-a-time," + key + ",5"
                : i + "," + time + "," + key + "," + (100 + random.nextInt(50_000));
            lines.add(new Line(partition, bad >= 10 && bad < 15 ? "card-x" : key, value));
        }
        for (int p = 0; p < partitions; p++)
        {
            lines.add(new Line(p, "flush", "-1," + FLUSH_TIME + ",flush,0"));
        }
        return lines;
    }

    void produce(final String topic, final List<Line> lines)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()))
        {
            for (final Line line : lines)
            {
                final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, line.partition(), line.key().getBytes(StandardCharsets.UTF_8),
                    line.value().getBytes(StandardCharsets.UTF_8));
                if (line.table() != null)
                {
                    record.headers().add(TableRecords.HEADER, line.table().getBytes(StandardCharsets.UTF_8));
                }
                producer.send(record);
            }
        }
    }

    /** The rows of each partition by a bounded weir run of its good records (same flags), less the flush record's. */
    static Map<Integer, Rows> reference(final Path dir, final List<Line> lines, final int partitions) throws IOException
    {
        return reference(dir, lines, partitions, WINDOW_FLAGS);
    }

    /** The rows of each partition by a bounded weir run of its good records with these window flags, less the flush record's. */
    static Map<Integer, Rows> reference(final Path dir, final List<Line> lines, final int partitions, final String[] flags) throws IOException
    {
        final Map<Integer, Rows> rows = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            final List<String> csv = new ArrayList<>();
            final boolean withShop = !lines.isEmpty() && lines.get(0).value().split(",").length == 5; // compositeKeys
            csv.add(withShop ? "event_id,event_time,key,shop,value" : "event_id,event_time,key,value");
            for (final Line line : lines)
            {
                if (line.partition() == p && keyed(line))
                {
                    csv.add(line.value());
                }
            }
            final Path input = dir.resolve("partition-" + p + ".csv");
            Files.write(input, csv);
            final Path results = dir.resolve("partition-" + p + ".results.csv");
            final Path late = dir.resolve("partition-" + p + ".late.csv");
            final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--results", results.toString(),
                "--late-output", late.toString()));
            args.addAll(List.of(flags));
            final Cli run = Cli.run(args.toArray(String[]::new));
            assertEquals(0, run.exit(), () -> "the reference run: " + run.err());
            rows.put(p, new Rows(withoutFlush(Files.readAllLines(results)), withoutFlush(Files.readAllLines(late))));
        }
        return rows;
    }

    /**
     * The rows of each partition by a bounded weir run of a journal of its own holding the partition's good events and
     * the rows of a table in the partition's order: each run of consecutive rows is appended by {@code weir ingest
     * --table}, each run of consecutive events by {@code weir ingest}, in turn; then {@code weir run --journal} with these
     * flags (which join the table, and do not declare it: a local journal's tables are its own). Less the flush record's rows.
     *
     * @param table the table of the lines that are rows, as {@link TableDefinition#parse} reads it.
     */
    static Map<Integer, Rows> referenceWithTable(final Path dir, final List<Line> lines, final int partitions, final TableDefinition table,
        final String[] flags) throws IOException
    {
        final Map<Integer, Rows> rows = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            final Path journal = dir.resolve("reference-" + p);
            final List<String> chunk = new ArrayList<>();
            boolean rowsChunk = false;
            int chunks = 0;
            for (final Line line : lines)
            {
                if (line.partition() != p || (line.table() == null && !keyed(line)))
                {
                    continue;
                }
                final boolean isRow = line.table() != null;
                if (isRow != rowsChunk && !chunk.isEmpty())
                {
                    ingest(dir, journal, p, chunks++, rowsChunk ? table : null, chunk);
                    chunk.clear();
                }
                rowsChunk = isRow;
                chunk.add(line.value());
            }
            if (!chunk.isEmpty())
            {
                ingest(dir, journal, p, chunks, rowsChunk ? table : null, chunk);
            }
            final Path results = dir.resolve("partition-" + p + ".results.csv");
            final Path late = dir.resolve("partition-" + p + ".late.csv");
            final List<String> args = new ArrayList<>(List.of("run", "--journal", journal.toString(), "--results", results.toString(),
                "--late-output", late.toString()));
            args.addAll(List.of(flags));
            final Cli run = Cli.run(args.toArray(String[]::new));
            assertEquals(0, run.exit(), () -> "the reference run: " + run.err());
            rows.put(p, new Rows(withoutFlush(Files.readAllLines(results)), withoutFlush(Files.readAllLines(late))));
        }
        return rows;
    }

    /** Append a run of consecutive table rows (if table is not null) or events of a partition to its reference journal. */
    private static void ingest(final Path dir, final Path journal, final int partition, final int chunk, final TableDefinition table,
        final List<String> values) throws IOException
    {
        final Path input = dir.resolve("partition-" + partition + "-" + chunk + (table != null ? "-rows.csv" : "-events.csv"));
        final List<String> csv = new ArrayList<>();
        csv.add(table != null ? TableCsvParser.header(table) + "," + TableCsvParser.OP : "event_id,event_time,key,value");
        csv.addAll(values);
        Files.write(input, csv);
        final List<String> args = new ArrayList<>(List.of("ingest", "--journal", journal.toString(), "--input", input.toString()));
        if (table != null)
        {
            args.addAll(List.of("--table", table.name(), "--key", String.join(",", table.key()), "--columns", table.columns().toString()));
        }
        final Cli ingest = Cli.run(args.toArray(String[]::new));
        assertEquals(0, ingest.exit(), () -> "the reference ingest of " + input + ": " + ingest.err());
        if (table != null)
        {
            assertEquals(true, ingest.out().contains(", 0 rejected"), () -> "every row of " + input + " ingested: " + ingest.out());
        }
    }

    private static List<String> withoutFlush(final List<String> lines)
    {
        return lines.subList(1, lines.size()).stream().filter(l -> !l.contains(",flush,") && !l.split(",")[2].equals(LONG_FLUSH)).toList();
    }

    /**
     * The same payments keyed by the card's number, a long column ({@code --columns key:long,value:long}): card-N is N,
     * the record whose key is not its card is keyed x, and the flush record is keyed {@value #LONG_FLUSH}.
     */
    static List<Line> longKeys(final List<Line> lines)
    {
        return lines.stream().map(line ->
        {
            final String[] f = line.value().split(",");
            return new Line(line.partition(), number(line.key()), f[0] + "," + f[1] + "," + number(f[2]) + "," + f[3]);
        }).toList();
    }

    /**
     * The same payments with a shop, a long column after the card ({@code --columns key:string,shop:long,value:long
     * --key key,shop}): card-N's shop is N mod 3 (the flush record's 0), the record key the card and the shop joined by a
     * comma; the record whose key is not its card is keyed {@code card-x,SHOP}.
     */
    static List<Line> compositeKeys(final List<Line> lines)
    {
        return lines.stream().map(line ->
        {
            final String[] f = line.value().split(",");
            final String shop = f[2].equals("flush") ? "0" : Integer.toString(Integer.parseInt(f[2].substring(f[2].indexOf('-') + 1)) % 3);
            return new Line(line.partition(), line.key() + "," + shop, f[0] + "," + f[1] + "," + f[2] + "," + shop + "," + f[3]);
        }).toList();
    }

    /** @return true if the line's record key is its value's key: the key field, or the key and shop fields of {@link #compositeKeys}. */
    static boolean keyed(final Line line)
    {
        final String[] f = line.value().split(",");
        if (line.table() != null)
        {
            return line.key().equals(f[1]); // a table row keyed by its key column, the first
        }
        return line.key().equals(f.length == 5 ? f[2] + "," + f[3] : f[2]);
    }

    private static final String LONG_FLUSH = "-1";

    private static String number(final String key)
    {
        return key.equals("flush") ? LONG_FLUSH : key.substring(key.indexOf('-') + 1);
    }

    /** The committed rows of the output topic, by source partition, until there are {@code expected} or {@code patience} ends. */
    Map<Integer, Rows> committed(final String topic, final String output, final int partitions, final long expected, final Duration patience)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        final Map<Integer, Rows> rows = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            rows.put(p, new Rows(new ArrayList<>(), new ArrayList<>()));
        }
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
        {
            final long deadline = System.nanoTime() + patience.toNanos();
            List<TopicPartition> all = List.of();
            while (all.isEmpty() && System.nanoTime() < deadline) // the instances create the output topic
            {
                all = consumer.partitionsFor(output).stream().map(p -> new TopicPartition(output, p.partition())).toList();
                if (all.isEmpty())
                {
                    pause(500);
                }
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            long quietSince = System.nanoTime();
            while (System.nanoTime() < deadline && (count < expected || System.nanoTime() - quietSince < 3_000_000_000L))
            {
                for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200)))
                {
                    final String source = OutputHeaders.text(r.headers(), OutputHeaders.SOURCE);
                    final int p = Integer.parseInt(source.substring(topic.length() + 1));
                    final String row = new String(r.value(), StandardCharsets.UTF_8);
                    if (keyFields > 0)
                    {
                        final String[] fields = row.split(",");
                        final String key = String.join(",", java.util.Arrays.copyOfRange(fields, 2, 2 + keyFields));
                        if (r.key() == null || !key.equals(new String(r.key(), StandardCharsets.UTF_8)))
                        {
                            keyMismatches.add((r.key() == null ? "null" : new String(r.key(), StandardCharsets.UTF_8)) + " -> " + row);
                        }
                    }
                    ("late".equals(OutputHeaders.text(r.headers(), OutputHeaders.KIND)) ? rows.get(p).late() : rows.get(p).results()).add(row);
                    count++;
                    quietSince = System.nanoTime();
                }
            }
        }
        return rows;
    }

    /** The committed records of the rejected topic, as "partition:offset reason". */
    List<String> rejected(final String rejectedTopic)
    {
        return KafkaBroker.readCommitted(bootstrap, rejectedTopic, Duration.ofSeconds(2)).stream()
            .map(r -> OutputHeaders.text(r.headers(), OutputHeaders.SOURCE) + "@" + OutputHeaders.text(r.headers(), OutputHeaders.OFFSET) + " "
                + OutputHeaders.text(r.headers(), OutputHeaders.REASON))
            .toList();
    }

    /**
     * Wait until the instance that writes {@code journal} has read at least {@code records} records and owns
     * {@code partitions} partitions, each read to its end, in three status files in a row; fail at once, with the end
     * of its log, if it ends first.
     */
    static void awaitCaughtUp(final Process instance, final Path log, final Path journal, final int partitions, final long records)
    {
        final java.util.regex.Pattern events = java.util.regex.Pattern.compile(" events (\\d+) ");
        final Path status = journal.resolve("kafka").resolve("status");
        int caughtUp = 0;
        final long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (caughtUp < 3 && System.nanoTime() < deadline)
        {
            if (!instance.isAlive())
            {
                throw new AssertionError("the instance ended with exit " + instance.exitValue() + " before catching up: " + tail(log));
            }
            pause(100);
            final List<String> lines;
            try
            {
                lines = Files.exists(status) ? Files.readAllLines(status) : List.of();
            }
            catch (final IOException ex)
            {
                continue; // being replaced
            }
            final java.util.regex.Matcher read = events.matcher(lines.isEmpty() ? "" : lines.get(0));
            final boolean allRead = read.find() && Long.parseLong(read.group(1)) >= records;
            final long idle = lines.stream().filter(l -> l.contains(" lag=0 ")).count();
            caughtUp = allRead && lines.size() == partitions + 1 && idle == partitions ? caughtUp + 1 : 0;
        }
        if (caughtUp < 3)
        {
            throw new AssertionError("the instance did not catch up with " + records + " records on " + partitions + " partitions: " + tail(log));
        }
    }

    /** @return the last 30 lines of a log, for a failure message. */
    static String tail(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    static void pause(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close()
    {
        admin.close(Duration.ofSeconds(5));
    }
}
