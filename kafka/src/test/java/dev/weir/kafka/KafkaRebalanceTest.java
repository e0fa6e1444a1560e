package dev.weir.kafka;

import java.nio.file.Path;
import java.util.List;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rebalancing without a crash: an instance joins while the first runs, then the first leaves gracefully; the
 * partitions that move are committed by the one and taken over by the other from their checkpoints, and the
 * output topic still holds every row once, in order, equal to a bounded run of each partition.
 */
@Tag("slow")
final class KafkaRebalanceTest
{
    @TempDir
    Path dir;

    @Test
    void anInstanceJoinsThenTheFirstLeaves() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 4;
            final String topic = KafkaBroker.topic(admin, "weir-rebalance", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 40_000, 7);
            final int third = lines.size() / 3;
            KafkaRunTest.produce(bootstrap, topic, lines.subList(0, third));
            final KafkaRun a = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "a")).start();
            KafkaRun b = null;
            try
            {
                KafkaRunTest.waitForOutputs(a, 1);
                b = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "b")).start();
                KafkaRunTest.produce(bootstrap, topic, lines.subList(third, 2 * third));
                KafkaRunTest.waitForCaughtUp(b, 1, partitions - 1); // b owns some partitions, a the others
                assertTrue(b.takeovers() > 0, "b took partitions over");
                assertTrue(a.status().split("\n").length < partitions, () -> "a gave partitions up: " + a.status());
                a.close();
                assertNull(a.failure(), () -> "a failed: " + a.failure());
                KafkaRunTest.produce(bootstrap, topic, lines.subList(2 * third, lines.size()));
                KafkaRunTest.waitForAll(b, partitions);
            }
            finally
            {
                a.close();
                if (b != null)
                {
                    b.close();
                }
            }
            final KafkaRun last = b;
            assertNull(last.failure(), () -> "b failed: " + last.failure());
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }
}
