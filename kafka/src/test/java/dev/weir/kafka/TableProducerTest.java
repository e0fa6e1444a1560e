package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.weir.csv.CsvInputException;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableProducer} as a service calls it: every valid row of a table CSV reaches every partition of the topic,
 * in the file's order, with the {@link TableRecords#HEADER} header, the key text as key and the line ending with its
 * {@code op} field; invalid lines are told and not sent; and what it refuses before any connection.
 */
final class TableProducerTest
{
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card,limit", "card:string,limit:decimal(2),tier:string");
    /** Nothing listens there: a refusal must come before any connection. */
    private static final String NOBODY = "127.0.0.1:1";

    @TempDir
    Path dir;

    @Test
    @Tag("slow")
    void sendsEachValidRowToEveryPartitionWithTheTableHeader() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final Path csv = dir.resolve("cards.csv");
        Files.writeString(csv, "event_time,card,limit,tier\n1000,card-a,5,gold\n\n1001,card-b,x,silver\n1002,card-b,6.5,silver\n"
            + "1003,,1,gold\n1004,card-c,7,bronze", StandardCharsets.UTF_8);
        final String topic;
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            topic = KafkaBroker.topic(admin, "table-producer", 3);
        }
        final TableProducer producer = new TableProducer(bootstrap, topic, csv, CARDS);
        final List<String> notSent = new ArrayList<>();

        assertEquals(3, producer.createTopic(6), "an existing topic keeps its partitions");
        final TableProducer.Sent sent = producer.send(null, (line, reason) -> notSent.add(line + ": " + reason));

        assertEquals(new TableProducer.Sent(3, 9, 3, 2, sent.nanos()), sent);
        assertEquals(9, producer.sent());
        assertEquals(2, notSent.size(), notSent::toString);
        assertTrue(notSent.get(0).startsWith("4: "), notSent::toString);
        assertEquals("6: empty key column card", notSent.get(1));
        final Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (final ConsumerRecord<byte[], byte[]> record : KafkaBroker.readCommitted(bootstrap, topic, Duration.ofSeconds(2)))
        {
            byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(
                new String(record.headers().lastHeader(TableRecords.HEADER).value(), StandardCharsets.UTF_8) + " | "
                    + new String(record.key(), StandardCharsets.UTF_8) + " | " + new String(record.value(), StandardCharsets.UTF_8));
        }
        final List<String> rows = List.of("cards | card-a,5.00 | 1000,card-a,5,gold,", "cards | card-b,6.50 | 1002,card-b,6.5,silver,",
            "cards | card-c,7.00 | 1004,card-c,7,bronze,");
        assertEquals(Map.of(0, rows, 1, rows, 2, rows), byPartition);
    }

    @Test
    @Tag("slow")
    void keepsTheOpFieldOfAFileThatHasOne() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final Path csv = dir.resolve("cards-op.csv");
        Files.writeString(csv, "event_time,card,limit,tier,op\n1000,card-a,5,gold,upsert\n1001,card-a,5,,delete\n1002,card-b,1,gold,\n"
            + "1003,card-b,1,gold,merge\n", StandardCharsets.UTF_8);
        final String topic;
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            topic = KafkaBroker.topic(admin, "table-producer-op", 2);
        }
        final List<String> notSent = new ArrayList<>();
        final TableProducer.Sent sent = new TableProducer(bootstrap, topic, csv, CARDS).send(new SendRate(1_000),
            (line, reason) -> notSent.add(line + ": " + reason));

        assertEquals(3, sent.rows());
        assertEquals(6, sent.records());
        assertEquals(List.of("5: op must be upsert, delete or empty: 'merge'"), notSent);
        final Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (final ConsumerRecord<byte[], byte[]> record : KafkaBroker.readCommitted(bootstrap, topic, Duration.ofSeconds(2)))
        {
            byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(new String(record.value(), StandardCharsets.UTF_8));
        }
        final List<String> rows = List.of("1000,card-a,5,gold,upsert", "1001,card-a,5,,delete", "1002,card-b,1,gold,");
        assertEquals(Map.of(0, rows, 1, rows), byPartition);
    }

    @Test
    void refusesBeforeAnyConnection() throws Exception
    {
        final Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "event_time,card,limit,tier\n1000,a,1,gold\n", StandardCharsets.UTF_8);
        final Path events = dir.resolve("e.csv");
        Files.writeString(events, "event_id,event_time,card,limit,tier\n1,1000,a,1,gold\n", StandardCharsets.UTF_8);

        final CsvInputException missing = assertThrows(CsvInputException.class,
            () -> new TableProducer(NOBODY, "t", dir.resolve("missing.csv"), CARDS));
        assertEquals("input file not found: " + dir.resolve("missing.csv"), missing.getMessage());
        final CsvInputException header = assertThrows(CsvInputException.class, () -> new TableProducer(NOBODY, "t", events, CARDS));
        assertTrue(header.getMessage().contains("does not start with the header 'event_time,card,limit,tier'"), header.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TableProducer(NOBODY, "t", csv, TableDefinition.parse("t", "k", "k:string,op:string")));
        assertThrows(IllegalArgumentException.class, () -> new TableProducer("localhost", "t", csv, CARDS));
        assertThrows(IllegalArgumentException.class, () -> new TableProducer(NOBODY, " ", csv, CARDS));
        assertThrows(IllegalArgumentException.class, () -> new TableProducer(NOBODY, "t", csv, CARDS).createTopic(0));
    }
}
