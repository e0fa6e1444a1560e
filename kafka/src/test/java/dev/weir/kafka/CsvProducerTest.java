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

import dev.weir.csv.CsvInputException;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CsvProducer} and {@link CommittedTopic} as a service calls them, without the command line: a file sent
 * once, keyed by its key field, and read back committed; and what the producer refuses before any connection.
 */
final class CsvProducerTest
{
    private static final JournalSchema CARDS = JournalSchema.parse("card:string,amount:long");
    /** Nothing listens there: a refusal must come before any connection. */
    private static final String NOBODY = "127.0.0.1:1";

    @TempDir
    Path dir;

    @Test
    @Tag("slow")
    void sendsEachLineOnceKeyedByItsKeyFieldAndReadsThemBackCommitted() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final Path csv = dir.resolve("cards.csv");
        Files.writeString(csv, "event_id,event_time,card,amount\n1,1000,card-a,5\n\n2,1001,card-b,6\n3,1002\n", StandardCharsets.UTF_8);
        final String topic;
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            topic = KafkaBroker.topic(admin, "csv-producer", 1);
        }
        final CsvProducer producer = new CsvProducer(bootstrap, topic, csv, CARDS, "card");

        assertEquals(1, producer.createTopic(4), "an existing topic keeps its partitions");
        final CsvProducer.Sent sent = producer.send(new SendRate(1_000), line -> { });

        assertEquals(new CsvProducer.Sent(3, 1, 0, sent.nanos()), sent);
        assertEquals(3, producer.sent());
        final List<String> read = new ArrayList<>();
        final long count = CommittedTopic.read(bootstrap, topic, Duration.ofSeconds(2),
            record -> read.add((record.key() == null ? "null" : new String(record.key(), StandardCharsets.UTF_8)) + " -> "
                + new String(record.value(), StandardCharsets.UTF_8)));
        assertEquals(List.of("card-a -> 1,1000,card-a,5", "card-b -> 2,1001,card-b,6", "null -> 3,1002"), read);
        assertEquals(3, count);
    }

    @Test
    void refusesBeforeAnyConnection() throws Exception
    {
        final Path csv = dir.resolve("e.csv");
        Files.writeString(csv, "event_id,event_time,card,amount\n1,1000,a,1\n", StandardCharsets.UTF_8);
        final Path other = dir.resolve("other.csv");
        Files.writeString(other, "event_id,event_time,key,value\n1,1000,a,1\n", StandardCharsets.UTF_8);

        final CsvInputException missing = assertThrows(CsvInputException.class,
            () -> new CsvProducer(NOBODY, "t", dir.resolve("missing.csv"), CARDS, "card"));
        assertEquals("input file not found: " + dir.resolve("missing.csv"), missing.getMessage());
        final CsvInputException header = assertThrows(CsvInputException.class, () -> new CsvProducer(NOBODY, "t", other, CARDS, "card"));
        assertTrue(header.getMessage().contains("starts with the header 'event_id,event_time,key,value'"), header.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CsvProducer(NOBODY, "t", csv, CARDS, "merchant"));
        assertThrows(IllegalArgumentException.class, () -> new CsvProducer("localhost", "t", csv, CARDS, "card"));
        assertThrows(IllegalArgumentException.class, () -> new CsvProducer(NOBODY, " ", csv, CARDS, "card"));
        assertThrows(IllegalArgumentException.class, () -> new CsvProducer(NOBODY, "t", csv, CARDS, "card").createTopic(0));
    }
}
