package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalPretoucher;

/**
 * Where the latency tail on ext4 comes from: a producer appends 20,000,000 events to a fresh journal at
 * 1,000,000 events/s (one every microsecond, busy-waiting for its slot) and reports every append that
 * took more than 1 ms, with how far apart (in events and in journal bytes) consecutive stalls are.
 * <p>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.weir.bench.AppendStalls [directory [pretouch]]} (default the
 * temporary directory; give {@code /dev/shm} for tmpfs; a second argument {@code pretouch} starts the journal's
 * pretoucher, {@code EventJournal.pretouch}). A tool, not a JMH benchmark: it prints
 * observations, and its figures are in BENCHMARKS.md. Runs on the main thread.
 */
public final class AppendStalls
{
    private static final int EVENTS = 20_000_000;

    private AppendStalls()
    {
    }

    /**
     * @param args an optional directory for the journal, then optionally {@code pretouch}.
     * @throws IOException if the journal cannot be created.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path parent = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"));
        final boolean pretouch = args.length > 1 && "pretouch".equals(args[1]);
        final Path dir = Files.createTempDirectory(parent, "weir-stalls-");
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal")))
        {
            if (pretouch)
            {
                journal.pretouch(JournalPretoucher.MAX_AHEAD_BYTES);
            }
            final int key = journal.keyId("k");
            final long first = journal.append(0, 0, key, 0);
            final long start = System.nanoTime();
            long due = start;
            int stalls = 0;
            long worst = 0;
            long total = 0;
            long previous = -1;
            for (int i = 1; i < EVENTS; i++)
            {
                due += 1_000;
                while (System.nanoTime() < due)
                {
                    Thread.onSpinWait();
                }
                final long t0 = System.nanoTime();
                journal.append(i, i, key, i);
                final long took = System.nanoTime() - t0;
                if (took > 1_000_000)
                {
                    stalls++;
                    worst = Math.max(worst, took);
                    total += took;
                    System.out.printf("event %,d at %.3f s: %.1f ms%s%n", i, (t0 - start) / 1e9, took / 1e6,
                        previous < 0 ? "" : String.format(" (%,d events after the previous stall)", i - previous));
                    previous = i;
                }
            }
            final long bytes = Files.size(dir.resolve("journal").resolve("events").resolve(
                Files.list(dir.resolve("journal").resolve("events")).filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow()
                    .getFileName()));
            System.out.printf("%s%s: %,d appends at 1,000,000/s, %d took over 1 ms (worst %.1f ms, %.0f ms in all); journal file %,d bytes, "
                + "first offset %d%n", parent, pretouch ? " (pretouch)" : "", EVENTS, stalls, worst / 1e6, total / 1e6, bytes, first);
        }
        finally
        {
            Workloads.delete(dir);
        }
    }
}
