package dev.weir.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.expr.StringTexts;
import dev.weir.engine.join.AsOfJoin;
import dev.weir.engine.join.Horizon;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.join.TableJoins;
import dev.weir.journal.schema.EventView;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The join stage alone, one operation per event, as the publisher runs it ({@link TableJoins#join}: the horizon,
 * then each join's as-of lookup), on an endless stream of the end-to-end workload's shape (10,000 cards, 10,000
 * events per second of event time, up to 50 ms out of order); the score is the time per event. The tables are those
 * of {@link Workloads#payments}: each card with three versions (valid from a day before, and 70 s and 140 s into the
 * stream), and one fx rate per country. {@code joins=1}: the card table; {@code joins=2}: and the fx table, keyed by
 * the event's second string column. Each operation reads one column of each joined row. Run with {@code -prof gc}
 * to see that it allocates nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class JoinBenchmark
{
    private static final int STREAM = 1 << 20;
    private static final int KEYS = 10_000;
    private static final long BASE = 1_700_000_000_000L;
    private static final String[] COUNTRIES = {"FR", "DE", "IT"};

    @Param({"1", "2"})
    public int joins;

    private final int[] cards = new int[STREAM];
    private final int[] countries = new int[STREAM];
    private final long[] jitter = new long[STREAM];
    private final Event event = new Event();
    private TableJoins tableJoins;
    private int limitColumn;
    private long n;

    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < STREAM; i++)
        {
            cards[i] = random.nextInt(KEYS);
            countries[i] = random.nextInt(COUNTRIES.length);
            jitter[i] = random.nextInt(50);
        }
        final Texts texts = new Texts();
        final AsOfJoin cardJoin = new AsOfJoin(0, Workloads.CARDS, new int[] {0}, texts);
        final AsOfJoin fxJoin = new AsOfJoin(1, Workloads.FX, new int[] {2}, texts);
        tableJoins = new TableJoins(new Horizon(1_000, 0, 10_000), joins == 1 ? new AsOfJoin[] {cardJoin} : new AsOfJoin[] {cardJoin, fxJoin}, 6,
            JoinMissing.DROP);
        final SyntheticTableRow row = new SyntheticTableRow();
        for (final long from : new long[] {BASE - 86_400_000L, BASE + 70_000, BASE + 140_000})
        {
            for (int k = 0; k < KEYS; k++)
            {
                row.table = 0;
                row.validFrom = from;
                row.key = texts.cards[k];
                row.value = 500_00 + k;
                row.text = COUNTRIES[k % 3];
                tableJoins.onTableRow(-1, row);
            }
        }
        for (int c = 0; c < COUNTRIES.length; c++)
        {
            row.table = 1;
            row.validFrom = BASE - 86_400_000L;
            row.key = COUNTRIES[c];
            row.value = 10_000 + c;
            tableJoins.onTableRow(-1, row);
        }
        limitColumn = 6 + 1; // the first joined table's limit, after the event's six columns and the card
    }

    @Benchmark
    public long join()
    {
        final int i = (int)(n & (STREAM - 1));
        event.time = BASE + n / 10 - jitter[i];
        event.card = cards[i];
        event.country = countries[i];
        n++;
        if (!tableJoins.join(-1, event))
        {
            throw new IllegalStateException("unmatched");
        }
        final long limit = tableJoins.view().longColumn(limitColumn);
        return joins == 1 ? limit : limit + tableJoins.view().longColumn(6 + 3 + 1);
    }

    /** A payments event: card (0) and country (2) string ids. */
    private static final class Event implements EventView
    {
        long time;
        int card;
        int country;

        @Override
        public long eventId()
        {
            return 0;
        }

        @Override
        public long eventTime()
        {
            return time;
        }

        @Override
        public long longColumn(final int column)
        {
            return 0;
        }

        @Override
        public int stringId(final int column)
        {
            return column == 0 ? card : country;
        }
    }

    /** The events' dictionaries: card ids are the cards' numbers, country ids index {@link #COUNTRIES}. */
    private static final class Texts implements StringTexts
    {
        final String[] cards = new String[KEYS];

        Texts()
        {
            for (int k = 0; k < KEYS; k++)
            {
                cards[k] = "k" + k;
            }
        }

        @Override
        public CharSequence textOf(final int column, final int id)
        {
            return column == 0 ? cards[id] : COUNTRIES[id];
        }

        @Override
        public int definedCount(final int column)
        {
            return column == 0 ? KEYS : COUNTRIES.length;
        }

        @Override
        public int idOf(final int column, final String text)
        {
            throw new UnsupportedOperationException("no literals here");
        }
    }
}
