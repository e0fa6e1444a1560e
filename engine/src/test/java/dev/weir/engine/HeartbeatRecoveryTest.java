package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Heartbeats are journal content: a following pipeline stopped and resumed just after a heartbeat (its
 * checkpoint covering the heartbeat's offset), or resumed from an older checkpoint, writes the outputs an
 * uninterrupted run writes, with the same source offsets; and heartbeats do fire windows (some outputs
 * carry a heartbeat's offset).
 */
class HeartbeatRecoveryTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aPipelineResumedAfterHeartbeatsWritesWhatAnUninterruptedOneWrites(final WindowKind kind) throws Exception
    {
        final List<long[]> documents = documents(12_000, 17);
        final Path clean = dir.resolve("clean");
        final Set<Long> heartbeatOffsets = append(clean, documents, 0, documents.size());
        builder(clean, kind).build().runToEnd();
        final List<String> expected = RecoveryTest.outputs(clean);
        assertTrue(expected.stream().anyMatch(row -> heartbeatOffsets.contains(Long.parseLong(row.substring(row.indexOf('@') + 1)))),
            "heartbeats fire windows");

        // followed, stopped just after a heartbeat each time (the stop checkpoint covers it), resumed
        final Path followed = dir.resolve("followed");
        int from = 0;
        int round = 0;
        for (int i = 0; i < documents.size(); i++)
        {
            if (documents.get(i)[0] < 0 && i - from > 1_500)
            {
                append(followed, documents, from, i + 1);
                from = i + 1;
                final PipelineLayout layout = PipelineLayout.values()[round++ % PipelineLayout.values().length];
                final Pipeline pipeline = builder(followed, kind).checkpointEvery(777).layout(layout).build().start();
                assertTrue(pipeline.awaitOffset(lastOffset(followed), 60, TimeUnit.SECONDS), "caught up with the heartbeat");
                pipeline.stop();
            }
        }
        assertTrue(round >= 3, "stopped after heartbeats: " + round);
        append(followed, documents, from, documents.size());
        builder(followed, kind).build().runToEnd();
        RecoveryTest.assertSameOutputs(expected, RecoveryTest.outputs(followed));

        // resumed from an older checkpoint: the outputs fired by heartbeats are reproduced and suppressed
        final Path resumed = dir.resolve("resumed");
        append(resumed, documents, 0, documents.size());
        builder(resumed, kind).checkpointEvery(2_000).build().runToEnd();
        final CheckpointStore store = new CheckpointStore(JournalDirectory.open(resumed).checkpoints(), 3);
        final List<Path> files = store.files();
        for (int i = 1; i < files.size(); i++)
        {
            Files.delete(files.get(i));
        }
        final RunSummary again = builder(resumed, kind).checkpointEvery(2_000).build().runToEnd();
        assertTrue(again.resumedAfterOffset() >= 0, "resumed from a checkpoint");
        RecoveryTest.assertSameOutputs(expected, RecoveryTest.outputs(resumed));
    }

    private static PipelineBuilder builder(final Path journal, final WindowKind kind)
    {
        final WindowSpec spec = kind == WindowKind.TUMBLING ? TumblingWindows.of(1_000)
            : kind == WindowKind.SLIDING ? SlidingWindows.of(1_000, 250) : SessionWindows.withGap(300);
        return Weir.pipeline().journal(journal).window(spec).outOfOrderness(200).allowedLateness(100).latePolicy(LatePolicy.SIDE);
    }

    /**
     * Bursts of events separated by quiet gaps, each gap holding a few heartbeats that move on in time
     * (and sometimes one behind); a heartbeat is {@code {-1, time}}, an event {@code {id, time, key, value}}.
     */
    private static List<long[]> documents(final int events, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> documents = new ArrayList<>();
        long now = 10_000;
        for (int i = 0; i < events; i++)
        {
            now += random.nextInt(3);
            documents.add(new long[] {i, Math.max(0, now - random.nextInt(250)), random.nextInt(200), random.nextInt(2_000) - 1_000});
            if (random.nextInt(400) == 0)
            {
                for (int h = 0, n = 1 + random.nextInt(4); h < n; h++)
                {
                    final long time = random.nextInt(5) == 0 ? now - 500 : now + 300 * (h + 1);
                    documents.add(new long[] {-1, Math.max(0, time)});
                }
                now += 300 * 5; // the stream resumes after the quiet gap
            }
        }
        return documents;
    }

    private static Set<Long> append(final Path journal, final List<long[]> documents, final int from, final int to)
    {
        final Set<Long> heartbeats = new HashSet<>();
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                final long[] d = documents.get(i);
                if (d[0] < 0)
                {
                    heartbeats.add(writer.appendHeartbeat(d[1]));
                }
                else
                {
                    writer.append(d[0], d[1], "k" + d[2], d[3]);
                }
            }
        }
        return heartbeats;
    }

    private static long lastOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }
}
