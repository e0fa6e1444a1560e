package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A takeover recovers the partition's pipeline from the checkpoint held in the checkpoint topic, in memory: until the
 * new owner's pipeline takes a checkpoint of its own, no checkpoint file is in its journal.
 */
@Tag("slow")
final class KafkaTakeoverRecoveryTest
{
    @TempDir
    Path dir;

    @Test
    void aTakeoverWritesNoCheckpointFileBeforeItsPipelineTakesOne() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-takeover", 1);
            final String output = topic + "-out";
            KafkaRunTest.produce(bootstrap, topic, KafkaRunTest.lines(1, 2_000, 5));
            final KafkaRun first = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "a", dir.resolve("a"))).start();
            try
            {
                KafkaRunTest.waitForAll(first, 1);
            }
            finally
            {
                first.close(); // its final checkpoint is committed as it releases the partition
            }
            assertNull(first.failure(), () -> "the first run failed: " + first.failure());

            final Path journals = dir.resolve("b");
            final KafkaRun.Settings usual = KafkaRunTest.settings(bootstrap, topic, output, "b", journals);
            // the new owner's pipeline takes no checkpoint of its own while the test looks (under load the first run's
            // last checkpoint may leave events to replay, which would otherwise checkpoint every 500)
            final KafkaRun.Settings noCheckpointOfItsOwn = new KafkaRun.Settings(usual.bootstrap(), usual.topic(), usual.group(),
                usual.outputTopic(), usual.rejectedTopic(), usual.instance(), usual.journal(), usual.schema(), usual.rollCycle(),
                () -> usual.pipeline().get().checkpointEvery(Long.MAX_VALUE / 2), usual.decoders(), usual.rows(), usual.commitInterval(),
                usual.transactionTimeout(), usual.sessionTimeout());
            final KafkaRun second = new KafkaRun(noCheckpointOfItsOwn).start();
            try
            {
                KafkaRunTest.waitForAll(second, 1);
                assertTrue(!second.status().contains("checkpoint-offset=-1 "), "taken over from a checkpoint: " + second.status());
                assertEquals(List.of(), checkpointFiles(journals.resolve("kafka")), "no checkpoint file for the recovery");
            }
            finally
            {
                second.close();
            }
            assertNull(second.failure(), () -> "the second run failed: " + second.failure());
        }
    }

    /** @return every file in a directory named {@code checkpoints} under a tree */
    private static List<Path> checkpointFiles(final Path root) throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            return paths.filter(Files::isRegularFile).filter(path -> path.getParent().getFileName().toString().equals("checkpoints")).toList();
        }
    }
}
