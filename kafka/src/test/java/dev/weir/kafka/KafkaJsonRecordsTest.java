package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
 * CSV lines gives, each once; a value that is not a JSON object goes to the rejected topic with its reason.
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
                csv.instance(), csv.journal(), csv.schema(), csv.rollCycle(), csv.pipeline(), () -> RecordDecoder.json(JournalSchema.DEFAULT, 0),
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
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
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
