package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.files.RowColumns;
import dev.weir.files.TimeFormat;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reference table over Kafka: its rows travel in the source partition, in order with the events, and each event
 * joins the row of its key valid at its time among the rows before it. A takeover between two parts of the stream
 * gives the rows an uninterrupted run gives: the new owner restores the table's rows from the checkpoint, and the
 * greatest time read, so versions too old for the horizon stay dropped (a very late event that needs one is
 * unmatched, not late).
 */
@Tag("slow")
final class KafkaJoinTest
{
    private static final JournalSchema EVENTS = JournalSchema.parse("card:string,amount:long");
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,limit:long,home:string");

    /** Table rows (marked T) and events, the first part: its end is where the takeover happens. */
    private static final List<String> PART_ONE = List.of(
        "T0,c1,100,FR,", "T0,c2,100,DE,", "T10000,c2,200,DE,",
        "1,1000,c1,5", "2,1500,c2,5",
        "T5000,c1,500,FR,upsert",
        "3,4000,c1,5", "4,6000,c1,5", "5,20000,c1,5");

    /** The second part: very late events whose versions the horizon dropped, a late one, on-time ones, a delete, the flush. */
    private static final List<String> PART_TWO = List.of(
        "6,4500,c1,5", "7,9000,c2,5", "13,15000,c2,5", "8,19500,c2,5", "9,21000,c1,5",
        "T21500,c1,,,delete",
        "10,22000,c1,5", "11,22500,c2,5", "12,86400000,c2,5");

    @TempDir
    Path dir;

    @Test
    void aTakeoverJoinsEveryEventAsAnUninterruptedRunDoes() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-join", 1);
            produce(bootstrap, topic, PART_ONE);
            final KafkaRun first = run(bootstrap, topic, "g-" + topic, topic + "-out", "a").start();
            try
            {
                KafkaRunTest.waitForAll(first, 1);
                // a checkpoint is taken between events once the last one is written: old events of a card with no
                // row (unmatched, and below the greatest time) until one covers the first part, so the takeover is
                // after every row and time of it, and the new owner's first events leave its horizon where it was
                
                final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while (checkpointOffset(first) < PART_ONE.size() - 1 && System.nanoTime() < deadline && first.failure() == null)
                {
                    produce(bootstrap, topic, List.of("0,2000,c3,5", "0,2000,c3,5"));
                    Thread.sleep(500);
                }
                assertTrue(checkpointOffset(first) >= PART_ONE.size() - 1, () -> "a checkpoint covers the first part: " + first.status());
            }
            finally
            {
                first.close(); // its last checkpoint, with the table's rows, is committed as it releases the partition
            }
            assertNull(first.failure(), () -> "the first run failed: " + first.failure());
            produce(bootstrap, topic, PART_TWO);
            final KafkaRun second = run(bootstrap, topic, "g-" + topic, topic + "-out", "b").start();
            try
            {
                KafkaRunTest.waitForAll(second, 1);
                assertFalse(second.status().contains("checkpoint-offset=-1 "), "taken over from a checkpoint: " + second.status());
                KafkaRunTest.waitForOutputs(second, 3);
            }
            finally
            {
                second.close();
            }
            assertNull(second.failure(), () -> "the second run failed: " + second.failure());

            final KafkaRun whole = run(bootstrap, topic, "g-whole-" + topic, topic + "-whole", "c").start();
            try
            {
                KafkaRunTest.waitForAll(whole, 1);
                KafkaRunTest.waitForOutputs(whole, 3);
            }
            finally
            {
                whole.close();
            }
            assertNull(whole.failure(), () -> "the uninterrupted run failed: " + whole.failure());

            final List<String> takenOver = committed(bootstrap, topic + "-out");
            final List<String> uninterrupted = committed(bootstrap, topic + "-whole");
            assertEquals(uninterrupted, takenOver, "the rows with a takeover are the rows without");
            // each event joined the row of its key valid at its time, among the rows before it
            assertTrue(uninterrupted.contains("result 4000,5000,c1,1,100,100,100,0"), () -> "before c1's update: " + uninterrupted);
            assertTrue(uninterrupted.contains("result 6000,7000,c1,1,500,500,500,0"), () -> "after it: " + uninterrupted);
            assertTrue(uninterrupted.contains("result 19000,20000,c2,1,200,200,200,0"), () -> "c2's second version: " + uninterrupted);
            assertTrue(uninterrupted.stream().noneMatch(row -> row.startsWith("result 22000,23000,c1")), () -> "c1 deleted: " + uninterrupted);
            // events 6 and 7 are late, and need versions older than the horizon: unmatched, not late; 13 is late and joins
            assertEquals(List.of("late 13,15000,c2,200"), uninterrupted.stream().filter(row -> row.startsWith("late")).toList(),
                "the late rows");
        }
    }

    /** @return the Kafka offset the partition's last shipped checkpoint covers, or -1. */
    private static long checkpointOffset(final KafkaRun run)
    {
        final java.util.regex.Matcher found = java.util.regex.Pattern.compile(" checkpoint-offset=(-?\\d+) ").matcher(run.status());
        return found.find() ? Long.parseLong(found.group(1)) : -1;
    }

    private KafkaRun run(final String bootstrap, final String topic, final String group, final String output, final String instance)
    {
        return KafkaRun.builder().bootstrap(bootstrap).topic(topic).group(group).outputTopic(output).instance(instance)
            .journal(dir.resolve(instance)).schema(EVENTS).keyColumn("card").table(CARDS)
            .rows(new RowColumns("card", "cards.limit", List.of(), false, null, null, TimeFormat.epoch, List.of("cards")))
            .pipeline(() -> Weir.pipeline().keyColumn("card").value("cards.limit").join("cards").window(TumblingWindows.of(1_000))
                .outOfOrderness(1_000).allowedLateness(0).latePolicy(LatePolicy.SIDE).checkpointEvery(2))
            .commitInterval(Duration.ofMillis(100)).sessionTimeout(Duration.ofSeconds(6)).build();
    }

    /** Send each line to partition 0: a line starting with T is a row of the cards table, the others events. */
    private static void produce(final String bootstrap, final String topic, final List<String> lines)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()))
        {
            for (final String line : lines)
            {
                final boolean row = line.startsWith("T");
                final String value = row ? line.substring(1) : line;
                final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, 0, value.split(",")[row ? 1 : 2].getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8));
                if (row)
                {
                    record.headers().add(TableRecords.HEADER, "cards".getBytes(StandardCharsets.UTF_8));
                }
                producer.send(record);
            }
        }
    }

    /** The committed rows of a topic, each as its kind and its value. */
    private static List<String> committed(final String bootstrap, final String topic)
    {
        final List<String> rows = new ArrayList<>();
        CommittedTopic.read(bootstrap, topic, Duration.ofSeconds(3), record -> rows.add(
            OutputHeaders.text(record.headers(), OutputHeaders.KIND) + " " + new String(record.value(), StandardCharsets.UTF_8)));
        return rows;
    }
}
