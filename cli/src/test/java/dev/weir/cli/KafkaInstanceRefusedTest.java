package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.weir.testsupport.KillHarness;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code weir run --kafka} instances (child JVMs) that must not start: a restart with another window than the
 * group's checkpoints, a second instance on a journal directory a live one uses, and a restart after the output
 * topic gained partitions. Each ends at once with exit 2 and one {@code weir:} line saying what differs and what to
 * do, and no stack trace; nothing is processed.
 */
@Tag("slow")
final class KafkaInstanceRefusedTest
{
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;

    @Test
    void aRestartWithAnotherWindowIsRefusedWithOneLine() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-reconfigured", PARTITIONS);
            final long records = produce(kafka, topic);
            runToTheEnd(kafka.bootstrap, topic, records, "tumbling:10s");
            final Process restarted = instance(kafka.bootstrap, topic, "a", "a", "tumbling:20s");
            final String refusal = refusal(restarted, dir.resolve("a.log"));
            assertTrue(refusal.contains("group g-" + topic) && refusal.contains("[tumbling:10000 ") && refusal.contains("[tumbling:20000 "),
                () -> "it names the group and both configurations: " + refusal);
            assertTrue(refusal.contains("same flags") && refusal.contains("new --group") && !refusal.contains("--pipeline"),
                () -> "it says what to do with --kafka: " + refusal);
        }
    }

    @Test
    void aSecondInstanceOnTheSameJournalIsRefused() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-shared-journal", PARTITIONS);
            final long records = produce(kafka, topic);
            final Process first = instance(kafka.bootstrap, topic, "a", "a", "tumbling:10s");
            try
            {
                KafkaCluster.awaitCaughtUp(first, dir.resolve("a.log"), dir.resolve("a"), PARTITIONS, records);
                final Process second = instance(kafka.bootstrap, topic, "b", "a", "tumbling:10s");
                final String refusal = refusal(second, dir.resolve("b.log"));
                assertTrue(refusal.contains(dir.resolve("a").resolve("kafka").toString()) && refusal.contains("(" + first.pid() + ")")
                    && refusal.contains("its own"), () -> "it names the directory, the process that owns it and what to do: " + refusal);
                assertTrue(first.isAlive(), "the first instance runs on");
                KafkaCluster.awaitCaughtUp(first, dir.resolve("a.log"), dir.resolve("a"), PARTITIONS, records);
            }
            finally
            {
                first.destroy();
                first.waitFor(60, TimeUnit.SECONDS);
                first.destroyForcibly();
            }
        }
    }

    @Test
    void aRestartAfterTheOutputTopicGainedPartitionsIsRefused() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-repartitioned", PARTITIONS);
            // fewer output partitions than source partitions: source partition 3 goes to 3 mod 2 = 1, and to 3 mod 3 = 0 after
            kafka.admin.createTopics(List.of(new NewTopic(topic + "-out", 2, (short)1))).all().get(30, TimeUnit.SECONDS);
            final long records = produce(kafka, topic);
            runToTheEnd(kafka.bootstrap, topic, records, "tumbling:10s");
            kafka.admin.createPartitions(Map.of(topic + "-out", NewPartitions.increaseTo(3))).all().get(30, TimeUnit.SECONDS);
            final Process restarted = instance(kafka.bootstrap, topic, "a", "a", "tumbling:10s");
            final String refusal = refusal(restarted, dir.resolve("a.log"));
            assertTrue(refusal.contains("output topic " + topic + "-out has 3 partitions") && refusal.contains("when it had 2")
                && refusal.contains("group g-" + topic) && refusal.contains("new --group"), () -> "it names both counts and what to do: " + refusal);
        }
    }

    private static long produce(final KafkaCluster kafka, final String topic)
    {
        final List<KafkaCluster.Line> lines = KafkaCluster.payments(PARTITIONS, 4_000, 200, 28);
        kafka.produce(topic, lines);
        return lines.size();
    }

    /** Run instance a with a window until it has read every record, then stop it (SIGTERM: its work committed). */
    private void runToTheEnd(final String bootstrap, final String topic, final long records, final String window) throws Exception
    {
        final Process first = instance(bootstrap, topic, "a", "a", window);
        try
        {
            KafkaCluster.awaitCaughtUp(first, dir.resolve("a.log"), dir.resolve("a"), PARTITIONS, records);
            first.destroy();
            assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first run stops");
            assertEquals(143, first.exitValue(), () -> "stopped by SIGTERM: " + KafkaCluster.tail(dir.resolve("a.log")));
        }
        finally
        {
            first.destroyForcibly();
        }
        Files.move(dir.resolve("a.log"), dir.resolve("a-first.log"));
    }

    private Process instance(final String bootstrap, final String topic, final String id, final String journal, final String window)
        throws Exception
    {
        return KillHarness.startChild(new String[] {"run", "--kafka", bootstrap, "--topic", topic, "--group", "g-" + topic,
            "--output-topic", topic + "-out", "--instance", id, "--journal", dir.resolve(journal).toString(), "--checkpoint-every", "200",
            "--window", window, "--session-timeout", "6s"}, dir.resolve(id + ".log"));
    }

    /** Wait for a refused instance to end; assert exit 2 and one weir: line, without a stack trace; return that line. */
    private static String refusal(final Process instance, final Path log) throws Exception
    {
        final boolean ended = instance.waitFor(120, TimeUnit.SECONDS);
        instance.destroyForcibly();
        assertTrue(ended, () -> "the instance is refused, not run: " + KafkaCluster.tail(log));
        final List<String> lines = Files.readAllLines(log);
        assertEquals(2, instance.exitValue(), () -> "exit 2: " + String.join("\n", lines));
        final List<String> messages = new ArrayList<>(lines.stream().filter(l -> l.startsWith("weir:")).toList());
        assertEquals(1, messages.size(), () -> "one weir: line: " + String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ") || l.contains("ERROR") || l.contains("caused by")),
            () -> "no stack trace: " + String.join("\n", lines));
        return messages.get(0);
    }
}
