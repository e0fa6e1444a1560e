package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

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
        return payments(events, keys, msPerEvent, seed, 0, 0);
    }

    /** The card table of {@link #payments}: its key, then the card's limit and home country. */
    static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,limit:decimal(2),home:string");
    /** The fx table of {@link #payments}: keyed by the events' second key column, country. */
    static final TableDefinition FX = TableDefinition.parse("fx", "country", "country:string,rate:decimal(4)");

    /**
     * The {@link #PAYMENTS} journal of {@link #filledJournal(String, int, int, double, long)}, with two reference
     * tables when {@code tableKeys > 0}: {@link #CARDS}, a row of each of {@code tableKeys} cards {@code k0, k1, ...}
     * valid from a day before the first event, then {@code versions - 1} more versions of each of the first
     * {@code keys} cards spread evenly over the events (each valid from the time of the event it precedes); and
     * {@link #FX}, a rate of each country from a day before, renewed every 100,000 events. Every event's card and
     * country have a row, so no event goes unmatched.
     *
     * @param tableKeys the card table's keys before the events (0: no tables).
     * @param versions  the versions of each of the first {@code keys} cards, 1 or more.
     */
    static Path payments(final int events, final int keys, final double msPerEvent, final long seed, final int tableKeys,
        final int versions) throws IOException
    {
        final Path dir = Files.createTempDirectory("weir-bench-");
        final Path journalDir = dir.resolve("journal");
        if (tableKeys > 0)
        {
            JournalDirectory.openOrCreateForTable(journalDir, CARDS, JournalRollCycle.DEFAULT);
            JournalDirectory.openOrCreateForTable(journalDir, FX, JournalRollCycle.DEFAULT);
        }
        try (EventJournal journal = EventJournal.openOrCreate(journalDir, JournalSchema.parse(PAYMENTS)))
        {
            final long dayBefore = 1_700_000_000_000L - 86_400_000L;
            final TableAppender cardRows = tableKeys > 0 ? journal.table("cards") : null;
            final TableAppender fxRows = tableKeys > 0 ? journal.table("fx") : null;
            final TableRow cardRow = tableKeys > 0 ? cardRows.row() : null;
            final TableRow rate = tableKeys > 0 ? fxRows.row() : null;
            final String[] countryNames = {"FR", "DE", "IT"};
            for (int k = 0; k < tableKeys; k++)
            {
                cardRows.upsert(cardRow.clear().validFrom(dayBefore).setString(0, "k" + k).setLong(1, 500_00 + k % 1_000 * 100)
                    .setString(2, countryNames[k % 3]));
            }
            for (int c = 0; tableKeys > 0 && c < countryNames.length; c++)
            {
                fxRows.upsert(rate.clear().validFrom(dayBefore).setString(0, countryNames[c]).setLong(1, 10_000 + c));
            }
            // the later versions: (versions - 1) * keys rows, one every `every` events, cycling over the keys
            final int updates = tableKeys > 0 ? (versions - 1) * keys : 0;
            final int every = updates > 0 ? Math.max(1, events / updates) : Integer.MAX_VALUE;
            int updated = 0;
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
                if (updated < updates && i % every == 0)
                {
                    final int k = updated++ % keys;
                    cardRows.upsert(cardRow.clear().validFrom(time).setString(0, "k" + k).setLong(1, 400_00 + updated % 1_000 * 100)
                        .setString(2, countryNames[(k + updated) % 3]));
                }
                if (tableKeys > 0 && i % 100_000 == 99_999)
                {
                    fxRows.upsert(rate.clear().validFrom(time).setString(0, countryNames[i / 100_000 % 3]).setLong(1, 10_000 + i / 100_000));
                }
                final int card = random.nextInt(keys);
                row.eventId(i).eventTime(time).setString(0, cards[card]).setLong(3, random.nextInt(100_000))
                    .setString(1, merchants[noise.nextInt(merchants.length)]).setString(2, countries[noise.nextInt(3)])
                    .setLong(4, card % 100).setString(5, channels[noise.nextInt(2)]);
                journal.append(row);
            }
        }
        return journalDir;
    }

    /** The three columns of {@link #trades}: an instrument, a trade's price and its quantity. */
    static final String TRADES = "instrument:string,price:decimal(2),qty:long";

    /**
     * @param list a list of named aggregates over the {@link #TRADES} columns, or null.
     * @return the list bound to those columns, or null for null.
     */
    static BoundAggregates tradeAggregates(final String list)
    {
        return list == null ? null : NamedAggregates.parse(list).bind(ExpressionColumns.of(JournalSchema.parse(TRADES)));
    }

    /**
     * A {@link #TRADES} journal: the times and keys of {@link #filledJournal(int, int, double, long)} ({@code keys}
     * instruments {@code i0, i1, ...} chosen uniformly, event time advancing by {@code msPerEvent} on average, up to
     * 50 ms out of order), each instrument's price a random walk of a cent or two per trade from 100.00, and a
     * quantity of 1 to 1,000.
     */
    static Path trades(final int events, final int keys, final double msPerEvent, final long seed) throws IOException
    {
        final Path dir = Files.createTempDirectory("weir-bench-");
        final Path journalDir = dir.resolve("journal");
        try (EventJournal journal = EventJournal.openOrCreate(journalDir, JournalSchema.parse(TRADES)))
        {
            final int[] instruments = new int[keys];
            final long[] prices = new long[keys];
            for (int k = 0; k < keys; k++)
            {
                instruments[k] = journal.stringId(0, "i" + k);
                prices[k] = 100_00;
            }
            final SplittableRandom random = new SplittableRandom(seed);
            final long base = 1_700_000_000_000L;
            final EventRow row = journal.row();
            for (int i = 0; i < events; i++)
            {
                final long time = base + (long)(i * msPerEvent) - random.nextInt(50);
                final int k = random.nextInt(keys);
                prices[k] = Math.max(1, prices[k] + random.nextInt(5) - 2);
                row.eventId(i).eventTime(time).setString(0, instruments[k]).setLong(1, prices[k]).setLong(2, 1 + random.nextInt(1_000));
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
