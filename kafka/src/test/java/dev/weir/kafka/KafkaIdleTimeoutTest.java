package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --idle-timeout} with Kafka: a partition that goes quiet gets heartbeats, so its last windows close without a
 * far-future record; each heartbeat is recorded by the checkpoint committed with the rows it caused, so a kill and a
 * takeover during the quiet period give the same rows, each once.
 */
@Tag("slow")
final class KafkaIdleTimeoutTest
{
    /** T: short, so the test is not slow; nothing below waits for a time, only for conditions. */
    static final Duration IDLE = Duration.ofSeconds(1);
    /** How long any condition may take on a busy 2-core machine: a bound, not an expectation. */
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void withoutAnIdleTimeoutTheLastWindowsOfAQuietPartitionStayOpen() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-idle-none", 1);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = quietLines(1_000, 3);
            KafkaRunTest.produce(bootstrap, topic, lines);
            final List<String> expected = KafkaRunTest.reference(dir, KafkaRunTest.byPartition(lines).get(0), 0);
            final KafkaRun run = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "a", dir.resolve("a"))).start();
            try
            {
                KafkaRunTest.waitForAll(run, 1);
                KafkaRunTest.waitForOutputs(run, 3);
            }
            finally
            {
                run.close();
            }
            assertNull(run.failure(), () -> "the run failed: " + run.failure());
            final List<String> rows = committedRows(bootstrap, topic, output);
            assertTrue(rows.size() < expected.size() && !rows.contains(expected.get(expected.size() - 1)),
                () -> "the last window stays open without a heartbeat: " + rows.size() + " of " + expected.size() + " rows committed");
            assertEquals(expected.subList(0, rows.size()), rows, "the rows committed are the first of the reference's");
        }
    }

    @Test
    void aQuietPartitionsLastWindowsCloseWithinTheTimeoutAndABound() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, "weir-idle", 1);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = quietLines(2_000, 5);
            KafkaRunTest.produce(bootstrap, topic, lines);
            final List<String> expected = KafkaRunTest.reference(dir, KafkaRunTest.byPartition(lines).get(0), 0);
            final KafkaRun run = new KafkaRun(settings(bootstrap, topic, output, "a", dir.resolve("a"))).start();
            try
            {
                KafkaRunTest.waitForAll(run, 1);
                awaitRows(bootstrap, topic, output, expected, run::failure);
                assertTrue(heartbeats(run.status()) > 0, () -> "heartbeats appended: " + run.status());
            }
            finally
            {
                run.close();
            }
            assertNull(run.failure(), () -> "the run failed: " + run.failure());
            assertEquals(expected, committedRows(bootstrap, topic, output), "every window closed, each row once, as a bounded run gives");
        }
    }

    @Test
    void aKillAndTakeoverDuringTheQuietPeriodGiveTheSameRows() throws Exception
    {
        // killed once the rows the heartbeats caused are committed (with the checkpoint that covers them)
        killedAndTakenOver("weir-idle-kill", 9, Duration.ofMillis(100), (rows, expected, log) -> rows.get().size() >= expected.size());
    }

    /**
     * Killed at moments spread over the reading and the quiet period: some after the first rows are committed but before
     * the heartbeat (the new owner regenerates rows committed after the checkpoint), some while the heartbeat's rows wait
     * in the open transaction (aborted: the new owner decides again). Whatever the moment, the rows must be the same.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 700, 1_400})
    void aKillAtAnyMomentAndATakeoverGiveTheSameRows(final int delayMillis) throws Exception
    {
        killedAndTakenOver("weir-idle-kill-" + delayMillis, 11 + delayMillis, Duration.ofSeconds(1), (rows, expected, log) ->
        {
            if (rows.get().isEmpty())
            {
                return false;
            }
            pause(delayMillis); // which moment is killed does not matter to what is asserted, only to which path is taken
            return true;
        });
    }

    private static void pause(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** When the test kills the first instance: given the rows committed (read on demand), the rows expected and its log. */
    private interface KillWhen
    {
        boolean now(java.util.function.Supplier<List<String>> rows, List<String> expected, Path log);
    }

    private void killedAndTakenOver(final String prefix, final long seed, final Duration commitInterval, final KillWhen when) throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final String topic = KafkaBroker.topic(admin, prefix, 1);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = quietLines(2_000, seed);
            KafkaRunTest.produce(bootstrap, topic, lines);
            final List<String> expected = KafkaRunTest.reference(dir, KafkaRunTest.byPartition(lines).get(0), 0);
            final Path log = dir.resolve("a.log");
            final Process first = new ProcessBuilder(child(IdleInstance.class, bootstrap, topic, output, "a", dir.resolve("a").toString(),
                Long.toString(commitInterval.toMillis())))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try
            {
                final long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (!when.now(() -> committedRows(bootstrap, topic, output), expected, log))
                {
                    assertTrue(first.isAlive(), () -> "the child ended: " + tail(log));
                    assertTrue(System.nanoTime() < deadline, () -> "the moment to kill did not come: " + tail(log));
                    Thread.sleep(100);
                }
            }
            finally
            {
                first.destroyForcibly().waitFor(60, TimeUnit.SECONDS); // kill -9, during the quiet period
            }
            final KafkaRun second = new KafkaRun(settings(bootstrap, topic, output, "b", dir.resolve("b"))).start();
            try
            {
                KafkaRunTest.waitForAll(second, 1);
                awaitRows(bootstrap, topic, output, expected, second::failure);
                // the new owner stays quiet for a heartbeat of its own, and ships the checkpoint that records it
                final long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (heartbeats(second.status()) == 0 && second.failure() == null && System.nanoTime() < deadline)
                {
                    Thread.sleep(100);
                }
                assertTrue(heartbeats(second.status()) > 0, () -> "the new owner's heartbeat: " + second.status());
            }
            finally
            {
                second.close();
            }
            assertNull(second.failure(), () -> "the second run failed: " + second.failure());
            assertEquals(expected, committedRows(bootstrap, topic, output), "the same rows after the takeover, each once");
        }
    }

    /** {@link KafkaRunTest#settings} with the idle timeout {@link #IDLE}. */
    static KafkaRun.Settings settings(final String bootstrap, final String topic, final String output, final String instance, final Path journal)
    {
        final KafkaRun.Settings s = KafkaRunTest.settings(bootstrap, topic, output, instance, journal);
        return new KafkaRun.Settings(s.bootstrap(), s.topic(), s.group(), s.outputTopic(), s.rejectedTopic(), s.instance(), s.journal(),
            s.schema(), s.rollCycle(), s.pipeline(), s.decoders(), s.rows(), s.commitInterval(), s.transactionTimeout(), s.sessionTimeout(),
            IDLE);
    }

    /** {@link KafkaRunTest#lines} of one partition without the far-future flush record: nothing but heartbeats closes its last windows. */
    private static List<KafkaRunTest.Line> quietLines(final int count, final long seed)
    {
        return KafkaRunTest.lines(1, count, seed).stream().filter(line -> !line.key().equals("flush")).toList();
    }

    /** Wait until the committed rows are (at least) as many as expected, or the failure supplied is not null. */
    private static void awaitRows(final String bootstrap, final String topic, final String output, final List<String> expected,
        final java.util.function.Supplier<Throwable> failure) throws InterruptedException
    {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<String> rows = List.of();
        while (System.nanoTime() < deadline && failure.get() == null)
        {
            rows = committedRows(bootstrap, topic, output);
            if (rows.size() >= expected.size())
            {
                return;
            }
            Thread.sleep(200);
        }
        final List<String> seen = rows;
        fail("the last windows did not close: " + seen.size() + " of " + expected.size() + " rows committed; " + failure.get());
    }

    /** @return the committed rows of partition 0, in order, checking their output numbers run 1, 2, 3... (none twice) */
    private static List<String> committedRows(final String bootstrap, final String topic, final String output)
    {
        final List<String> rows = new ArrayList<>();
        long sequence = 0;
        final List<ConsumerRecord<byte[], byte[]>> records;
        try
        {
            records = KafkaBroker.readCommitted(bootstrap, output, Duration.ofMillis(500));
        }
        catch (final IllegalStateException noTopicYet)
        {
            return rows; // the instance has not created the output topic yet
        }
        for (final ConsumerRecord<byte[], byte[]> r : records)
        {
            if ((topic + ":0").equals(OutputHeaders.text(r.headers(), OutputHeaders.SOURCE)))
            {
                final long number = OutputHeaders.number(r.headers(), OutputHeaders.SEQUENCE);
                assertEquals(++sequence, number, () -> "output number at " + r.offset());
                rows.add(new String(r.value(), StandardCharsets.UTF_8));
            }
        }
        return rows;
    }

    /** @return the heartbeats the status line shows, or 0 */
    private static long heartbeats(final String status)
    {
        final Matcher m = Pattern.compile(" heartbeats=(\\d+)").matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** @return the command of a child JVM that runs a test class with this JVM's flags (Chronicle's opens and exports) */
    private static List<String> child(final Class<?> main, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("--add-opens") || flag.startsWith("--add-exports") || flag.startsWith("-Dchronicle."))
            {
                command.add(flag);
            }
        }
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    private static String tail(final Path log)
    {
        try
        {
            final List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - 20), all.size()));
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }
}
