package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --record-format json}: the events of {@link KafkaRunTest}, each produced as a JSON object (members in
 * another order than the columns', with a member of no column), give the rows a bounded run of each partition's
 * CSV lines gives, each once, each late row naming its own record's offset (the mirror writes batched documents); a
 * value that is not a JSON object goes to the rejected topic with its reason.
 */
@Tag("slow")
final class KafkaJsonRecordsTest
{
    @TempDir
    Path dir;

    @Test
    void jsonRecordsGiveTheRowsOfTheSameEventsAsLines() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 2;
            final String topic = KafkaBroker.topic(admin, "weir-json", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 4_000, 35);
            final List<KafkaRunTest.Line> objects = new ArrayList<>();
            for (final KafkaRunTest.Line line : lines)
            {
                final String[] f = line.value().split(",");
                objects.add(f.length != 4 ? line : new KafkaRunTest.Line(line.partition(), line.key(),
                    "{\"value\": " + f[3] + ", \"key\": \"" + f[2] + "\", \"source\": {\"app\": \"pos\"}, \"event_time\": " + f[1]
                        + ", \"event_id\": " + f[0] + "}"));
            }
            KafkaRunTest.produce(bootstrap, topic, objects);
            final KafkaRun.Settings csv = KafkaRunTest.settings(bootstrap, topic, output, "a", dir.resolve("journal"));
            final KafkaRun.Settings json = new KafkaRun.Settings(csv.bootstrap(), csv.topic(), csv.group(), csv.outputTopic(), csv.rejectedTopic(),
                csv.instance(), csv.journal(), csv.schema(), csv.rollCycle(),
                () -> Weir.pipeline().window(TumblingWindows.of(1_000)).outOfOrderness(500).allowedLateness(1_000).latePolicy(LatePolicy.SIDE)
                    .checkpointEvery(500), () -> RecordDecoder.json(JournalSchema.DEFAULT, 0),
                csv.rows(), csv.commitInterval(), csv.transactionTimeout(), csv.sessionTimeout());
            final KafkaRun run = new KafkaRun(json).start();
            try
            {
                KafkaRunTest.waitForAll(run, partitions);
                KafkaRunTest.waitForOutputs(run, 3);
            }
            finally
            {
                run.close();
            }
            assertNull(run.failure(), () -> "the run failed: " + run.failure());

            // the results are those of a bounded run; each late row's weir-offset is its own record's offset: the events of
            // a batched document map to their records
            final Map<String, Long> offsetOfEvent = new HashMap<>();
            final long[] next = new long[partitions];
            for (final KafkaRunTest.Line line : objects)
            {
                offsetOfEvent.put(line.partition() + ":" + line.value().replaceAll(".*\"event_id\": (-?\\d+)}$", "$1"), next[line.partition()]++);
            }
            int late = 0;
            final Map<Integer, List<String>> results = new HashMap<>();
            for (final ConsumerRecord<byte[], byte[]> row : KafkaBroker.readCommitted(bootstrap, output, Duration.ofSeconds(3)))
            {
                final String source = OutputHeaders.text(row.headers(), OutputHeaders.SOURCE);
                final long offset = OutputHeaders.number(row.headers(), OutputHeaders.OFFSET);
                final int partition = Integer.parseInt(source.substring(source.lastIndexOf(':') + 1));
                if ("late".equals(OutputHeaders.text(row.headers(), OutputHeaders.KIND)))
                {
                    final String id = new String(row.value(), StandardCharsets.UTF_8).split(",")[0];
                    assertEquals(offsetOfEvent.get(partition + ":" + id), offset, () -> "the offset of late event " + id + " of partition " + partition);
                    late++;
                }
                else
                {
                    assertTrue(offset >= 0 && offset < next[partition], () -> "a result's source offset " + offset);
                    results.computeIfAbsent(partition, p -> new ArrayList<>()).add(new String(row.value(), StandardCharsets.UTF_8));
                }
            }
            assertTrue(late > 10, "late rows: " + late);
            final Map<Integer, List<String[]>> events = KafkaRunTest.byPartition(lines);
            for (int p = 0; p < partitions; p++)
            {
                final List<String> expected = KafkaRunTest.reference(dir, events.get(p), p);
                assertTrue(expected.size() > 50, "a partition with results: " + expected.size());
                assertEquals(expected, results.get(p), "the results of partition " + p);
            }
            final List<ConsumerRecord<byte[], byte[]>> rejected = KafkaBroker.readCommitted(bootstrap, output + "-rejected", Duration.ofSeconds(1));
            assertEquals(partitions, rejected.size(), "one bad record per partition");
            for (final ConsumerRecord<byte[], byte[]> record : rejected)
            {
                assertEquals("not a JSON object at byte 0", OutputHeaders.text(record.headers(), OutputHeaders.REASON));
                assertEquals("not,a,line", new String(record.value(), StandardCharsets.UTF_8));
            }
        }
    }
}
