package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.weir.csv.SamplePayments;
import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.test.kafka.TopicRecord;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir produce} against the test broker: every line of the demo's payments sent once, keyed by its key
 * field, in the file's order per key; named key columns, quoted keys, keyless lines, no header, a last line without
 * terminator; pacing; and flags refused with exit 2 before any connection.
 */
@Tag("slow")
final class ProduceCommandTest
{
    @TempDir
    Path dir;

    @Test
    void sendsTheDemoPaymentsKeyedByTheirKeyFieldInFileOrderPerKey() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final Path csv = dir.resolve("payments.csv");
        new SamplePayments(3_000, 40, 7).writeTo(csv);
        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        final List<String> events = lines.subList(1, lines.size()); // after the header
        final String topic = KafkaTestBroker.uniqueName("produce-demo");

        final Cli cli = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", csv.toString());

        assertEquals(0, cli.exit(), cli.err());
        assertTrue(cli.out().contains("Sent " + String.format("%,d", events.size()) + " lines"), cli.out());
        assertEquals(6, partitions(bootstrap, topic));
        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, events.size() + 1, Duration.ofSeconds(5));
        assertEquals(events.size(), read.size());
        read.sort(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset));
        final Map<String, List<String>> sentPerKey = new LinkedHashMap<>();
        final Map<String, Set<Integer>> partitionsPerKey = new LinkedHashMap<>();
        for (final TopicRecord record : read)
        {
            assertEquals(keyField(record.value()), record.key(), () -> "the key of " + record);
            sentPerKey.computeIfAbsent(String.valueOf(record.key()), k -> new ArrayList<>()).add(record.value());
            partitionsPerKey.computeIfAbsent(String.valueOf(record.key()), k -> new HashSet<>()).add(record.partition());
        }
        final Map<String, List<String>> filePerKey = new LinkedHashMap<>();
        for (final String event : events)
        {
            filePerKey.computeIfAbsent(String.valueOf(keyField(event)), k -> new ArrayList<>()).add(event);
        }
        assertEquals(filePerKey.keySet(), sentPerKey.keySet());
        for (final Map.Entry<String, List<String>> key : filePerKey.entrySet())
        {
            if (!"null".equals(key.getKey()))
            {
                assertEquals(key.getValue(), sentPerKey.get(key.getKey()), "the records of key " + key.getKey() + ", in order");
                assertEquals(1, partitionsPerKey.get(key.getKey()).size(), "the partitions of key " + key.getKey());
            }
        }
        assertEquals(List.of("oops,this is not a payment"), sentPerKey.get("null"), "the one line without a key field");
    }

    @Test
    void keysByTheNamedColumnWithoutHeaderQuotedKeysKeylessLinesAndALastLineWithoutTerminator() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final Path csv = dir.resolve("cards.csv");
        Files.writeString(csv, "1,1000,5,\"card \"\"a\"\", b\"\n\n2,1001,6,card-b\r\n3,1002\n4,1003,7,card-c", StandardCharsets.UTF_8);
        final String topic = KafkaTestBroker.uniqueName("produce-columns");

        final Cli cli = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", csv.toString(),
            "--columns", "amount:long,card:string", "--key", "card", "--partitions", "1");

        assertEquals(0, cli.exit(), cli.err());
        assertEquals(1, partitions(bootstrap, topic));
        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, 5, Duration.ofSeconds(3));
        assertEquals(List.of(
            "card \"a\", b -> 1,1000,5,\"card \"\"a\"\", b\"",
            "card-b -> 2,1001,6,card-b",
            "null -> 3,1002",
            "card-c -> 4,1003,7,card-c"),
            read.stream().map(r -> r.key() + " -> " + r.value()).toList());
    }

    @Test
    void keysByTheTextsOfSeveralKeyColumnsJoinedByCommasADecimalAtItsScale() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final Path csv = dir.resolve("composite.csv");
        Files.writeString(csv, "1,1000,5.5,\"card, b\"\n2,1001,6,card-c\n", StandardCharsets.UTF_8);
        final String topic = KafkaTestBroker.uniqueName("produce-composite");

        final Cli cli = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", csv.toString(),
            "--columns", "amount:decimal(2),card:string", "--key", "card,amount", "--partitions", "1");

        assertEquals(0, cli.exit(), cli.err());
        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, 2, Duration.ofSeconds(3));
        assertEquals(List.of(
            "\"card, b\",5.50 -> 1,1000,5.5,\"card, b\"",
            "card-c,6.00 -> 2,1001,6,card-c"),
            read.stream().map(r -> r.key() + " -> " + r.value()).toList(), "the record key weir run --kafka --key card,amount accepts");
    }

    @Test
    void sendsEachRowOfATableToEveryPartitionAndReportsTheInvalidOnes() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final Path csv = dir.resolve("cards.csv");
        Files.writeString(csv, "event_time,card,home,limit\n1000,card-a,FR,12.5\n1001,card-b,DE,oops\n1002,card-b,DE,3\n",
            StandardCharsets.UTF_8);
        final String topic = KafkaTestBroker.uniqueName("produce-table");

        final Cli cli = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", csv.toString(), "--partitions", "2",
            "--table", "cards", "--key", "card", "--columns", "card:string,home:string,limit:decimal(2)");

        assertEquals(0, cli.exit(), cli.err());
        assertTrue(cli.out().contains("Sent 2 rows of table cards"), cli.out());
        assertTrue(cli.out().contains("1 invalid lines not sent"), cli.out());
        final List<String> warnings = cli.err().lines().filter(l -> l.startsWith("weir: ")).toList();
        assertEquals(1, warnings.size(), cli.err());
        assertTrue(warnings.get(0).startsWith("weir: line 3 of " + csv + ": "), warnings::toString);
        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, 4, Duration.ofSeconds(3));
        read.sort(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset));
        assertEquals(List.of(
            "0 cards card-a -> 1000,card-a,FR,12.5,", "0 cards card-b -> 1002,card-b,DE,3,",
            "1 cards card-a -> 1000,card-a,FR,12.5,", "1 cards card-b -> 1002,card-b,DE,3,"),
            read.stream().map(r -> r.partition() + " " + r.header("weir-table") + " " + r.key() + " -> " + r.value()).toList());
    }

    @Test
    void refusesBadTableFlagsWithExitTwoBeforeConnecting() throws IOException
    {
        final Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "event_time,card,limit\n1000,a,1\n", StandardCharsets.UTF_8);
        final String[][] bad = {
            {"--table", "cards", "--key", "card"},
            {"--table", "Cards", "--key", "card", "--columns", "card:string,limit:long"},
            {"--table", "cards", "--key", "shop", "--columns", "card:string,limit:long"},
            {"--table", "cards", "--key", "card", "--columns", "card:string,limit:long,tier:string"},
            {"--table", "cards", "--key", "card", "--columns", "card:string,op:string"},
        };
        for (final String[] flags : bad)
        {
            final List<String> args = new ArrayList<>(List.of("produce", "--kafka", "127.0.0.1:1", "--topic", "t", "--input", csv.toString()));
            args.addAll(Arrays.asList(flags));
            final Cli cli = Cli.run(args.toArray(String[]::new));
            assertEquals(2, cli.exit(), () -> Arrays.toString(flags) + ": " + cli.err());
            assertTrue(cli.err().startsWith("weir: "), () -> Arrays.toString(flags) + ": " + cli.err());
            assertEquals(1, cli.err().strip().lines().count(), () -> "one message: " + cli.err());
        }
    }

    @Test
    void pacesTheSendsToTheRate() throws IOException
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final Path csv = dir.resolve("paced.csv");
        final StringBuilder text = new StringBuilder("event_id,event_time,key,value\n");
        for (int i = 0; i < 100; i++)
        {
            text.append(i).append(',').append(1000 + i).append(",k").append(i % 3).append(",1\n");
        }
        Files.writeString(csv, text, StandardCharsets.UTF_8);
        final String topic = KafkaTestBroker.uniqueName("produce-paced");

        final long before = System.currentTimeMillis();
        final Cli cli = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", csv.toString(), "--rate", "200/s",
            "--partitions", "2");

        assertEquals(0, cli.exit(), cli.err());
        final List<TopicRecord> read = KafkaTestBroker.readCommitted(topic, 100, Duration.ofSeconds(3));
        assertEquals(100, read.size());
        // the records' timestamps are the producer's clock at send(). The pacer lets the 100th send go no sooner than
        // 99 / 200 s after the first send began, which was after 'before'. A slow machine only makes it later, and a
        // first send that waited for metadata is caught up at once, so the span between records bounds nothing.
        final long last = read.stream().mapToLong(TopicRecord::timestamp).max().getAsLong();
        assertTrue(last - before >= 495, "the 100th record at 200/s was sent " + (last - before) + " ms after the command started");
    }

    @Test
    void refusesBadFlagsWithExitTwoAndOneMessageBeforeConnecting() throws IOException
    {
        final Path csv = dir.resolve("e.csv");
        Files.writeString(csv, "event_id,event_time,key,value\n1,1000,a,1\n", StandardCharsets.UTF_8);
        final Path otherHeader = dir.resolve("other.csv");
        Files.writeString(otherHeader, "event_id,event_time,card,amount\n1,1000,a,1\n", StandardCharsets.UTF_8);
        final String nobody = "127.0.0.1:1"; // nothing listens there: a refusal must come before any connection
        final String[][] bad = {
            {"--partitions", "0"},
            {"--rate", "fast"},
            {"--rate", "0/s"},
            {"--key", "card"},
            {"--key", "key,card"},
            {"--columns", "amount:nosuchtype"},
            {"--kafka", "localhost"},
            {"--kafka", "127.0.0.1:99999"},
            {"--input", dir.resolve("missing.csv").toString()},
            {"--input", otherHeader.toString()},
            {"--partitions", "many"},
            {"--no-such-flag"},
        };
        for (final String[] flags : bad)
        {
            final List<String> args = new ArrayList<>(List.of("produce", "--kafka", nobody, "--topic", "t", "--input", csv.toString()));
            args.addAll(Arrays.asList(flags));
            final long started = System.nanoTime();
            final Cli cli = Cli.run(args.toArray(String[]::new));
            assertEquals(2, cli.exit(), () -> Arrays.toString(flags) + ": " + cli.err());
            assertTrue(cli.err().startsWith("weir: "), () -> Arrays.toString(flags) + ": " + cli.err());
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) < 5, () -> Arrays.toString(flags) + " took long: connected?");
        }
    }

    /**
     * @return the third field of a line of the demo's payments (none is quoted), or null if it has fewer fields.
     */
    private static String keyField(final String line)
    {
        final String[] fields = line.split(",", -1);
        return fields.length >= 3 ? fields[2] : null;
    }

    private static int partitions(final String bootstrap, final String topic) throws Exception
    {
        try (Admin admin = Admin.create(KafkaTestBroker.adminProperties(bootstrap)))
        {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
        }
    }
}
