package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.JournalSchema;

/**
 * Journals filled with synthetic events for the benchmarks: {@code keys} keys chosen uniformly,
 * event time advancing by {@code msPerEvent} on average with a little disorder. Seeded: the same
 * arguments give the same journal.
 */
final class Workloads
{
    private Workloads()
    {
    }

    static Path filledJournal(final int events, final int keys, final double msPerEvent, final long seed) throws IOException
    {
        final Path dir = Files.createTempDirectory("weir-bench-");
        final Path journalDir = dir.resolve("journal");
        try (EventJournal journal = EventJournal.openOrCreate(journalDir))
        {
            final int[] ids = new int[keys];
            for (int k = 0; k < keys; k++)
            {
                ids[k] = journal.keyId("k" + k);
            }
            final SplittableRandom random = new SplittableRandom(seed);
            final long base = 1_700_000_000_000L;
            for (int i = 0; i < events; i++)
            {
                final long time = base + (long)(i * msPerEvent) - random.nextInt(50);
                journal.append(i, time, ids[random.nextInt(keys)], random.nextInt(100_000));
            }
        }
        return journalDir;
    }

    /** The six columns of {@link #filledJournal(String, int, int, double, long)}'s payments journal. */
    static final String PAYMENTS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string";

    /**
     * @param columns {@code four}: {@link #filledJournal(int, int, double, long)}; {@code six}: the same events
     *                (times, keys as {@code card}, values as {@code amount} in cents) in a {@link #PAYMENTS}
     *                journal, with merchant, country and channel drawn from another generator and fee the
     *                card's number modulo 100 (so the composite key {@code card,fee} has as many values as
     *                {@code card}); {@code six-pair}: the same journal.
     */
    static Path filledJournal(final String columns, final int events, final int keys, final double msPerEvent, final long seed)
        throws IOException
    {
        if (!columns.startsWith("six"))
        {
            return filledJournal(events, keys, msPerEvent, seed);
        }
        final Path dir = Files.createTempDirectory("weir-bench-");
        final Path journalDir = dir.resolve("journal");
        try (EventJournal journal = EventJournal.openOrCreate(journalDir, JournalSchema.parse(PAYMENTS)))
        {
            final int[] cards = new int[keys];
            for (int k = 0; k < keys; k++)
            {
                cards[k] = journal.stringId(0, "k" + k);
            }
            final int[] merchants = new int[1_000];
            for (int m = 0; m < merchants.length; m++)
            {
                merchants[m] = journal.stringId(1, "merchant " + m);
            }
            final int[] countries = {journal.stringId(2, "FR"), journal.stringId(2, "DE"), journal.stringId(2, "IT")};
            final int[] channels = {journal.stringId(5, "online"), journal.stringId(5, "pos")};
            final SplittableRandom random = new SplittableRandom(seed);
            final SplittableRandom noise = new SplittableRandom(seed + 1);
            final long base = 1_700_000_000_000L;
            final EventRow row = journal.row();
            for (int i = 0; i < events; i++)
            {
                final long time = base + (long)(i * msPerEvent) - random.nextInt(50);
                final int card = random.nextInt(keys);
                row.eventId(i).eventTime(time).setString(0, cards[card]).setLong(3, random.nextInt(100_000))
                    .setString(1, merchants[noise.nextInt(merchants.length)]).setString(2, countries[noise.nextInt(3)])
                    .setLong(4, card % 100).setString(5, channels[noise.nextInt(2)]);
                journal.append(row);
            }
        }
        return journalDir;
    }

    /**
     * Forget what a durable run left in a journal (its output journal and checkpoints), so the next run
     * starts from a clean state.
     */
    static void deleteOutputs(final Path journal)
    {
        delete(journal.resolve("results"));
        delete(journal.resolve("checkpoints"));
    }

    static void delete(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // temporary files left behind are harmless
        }
    }
}
