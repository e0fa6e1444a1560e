package dev.weir.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A second live instance with the same instance id (so the same transactional id) fences the first, as Kafka
 * documents: the first ends with a message naming the cause instead of going on as a zombie, and the second
 * carries on alone with every row committed once.
 */
@Tag("slow")
final class KafkaFencingTest
{
    @TempDir
    Path dir;

    @Test
    void aSecondInstanceWithTheSameIdFencesTheFirst() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 2;
            final String topic = KafkaBroker.topic(admin, "weir-fence", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 8_000, 3);
            KafkaRunTest.produce(bootstrap, topic, lines.subList(0, lines.size() / 2));
            final KafkaRun first = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "same")).start();
            KafkaRun second = null;
            try
            {
                KafkaRunTest.waitForOutputs(first, 1);
                // on another host, as it were: one journal directory has one instance at a time
                second = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "same", dir.resolve("second"))).start();
                KafkaRunTest.produce(bootstrap, topic, lines.subList(lines.size() / 2, lines.size()));
                assertTrue(first.awaitEnd(Duration.ofMinutes(3)), "the fenced instance ends");
                assertNotNull(first.failure(), "it ends with a failure");
                assertTrue(first.failure().getMessage().contains("fenced"), () -> "the failure says why: " + first.failure());
                KafkaRunTest.waitForAll(second, partitions);
            }
            finally
            {
                first.close();
                if (second != null)
                {
                    second.close();
                }
            }
            final KafkaRun last = second;
            assertNull(last.failure(), () -> "the second failed: " + last.failure());
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }
}
