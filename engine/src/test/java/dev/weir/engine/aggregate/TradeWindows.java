package dev.weir.engine.aggregate;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;

/**
 * Named aggregates bound to a schema of trades, run as the engine runs them: each event's inputs filled once, then
 * added to a window's state (a {@code long[]} holding every aggregate's state, one after the other); windows merge and
 * report each aggregate's value or emptiness. A test fixture; one thread.
 */
final class TradeWindows
{
    static final JournalSchema SCHEMA = JournalSchema.parse("symbol:string,side:string,price:decimal(2),qty:long,fee:decimal(4)");
    static final int SYMBOL = 0;
    private static final long[] NO_COLUMNS = new long[0];
    static final int SIDE = 1;
    static final int PRICE = 2;
    static final int QTY = 3;
    static final int FEE = 4;

    final BoundAggregates bound;
    final List<Aggregation> machines;
    final AggregateInputs inputs;
    final Strings strings = new Strings();
    private final int[] starts;
    private final int stateLongs;
    private final EventColumns columns = new EventColumns(SCHEMA);
    private final AggregationState state = new AggregationState();
    private final AggregationState other = new AggregationState();
    private final long[] in;
    private final Trade trade = new Trade();
    private long offset;

    TradeWindows(final String list)
    {
        this.bound = NamedAggregates.parse(list).bind(ExpressionColumns.of(SCHEMA));
        this.machines = bound.newAggregations();
        this.inputs = bound.newInputs(strings);
        this.starts = new int[machines.size()];
        int start = 0;
        for (int i = 0; i < machines.size(); i++)
        {
            starts[i] = start;
            start += machines.get(i).stateLongs();
        }
        this.stateLongs = start;
        this.in = new long[bound.inputCount()];
    }

    /** @return a new window's state. */
    long[] window()
    {
        final long[] window = new long[stateLongs];
        java.util.Arrays.fill(window, 0xDEAD_BEEFL); // garbage: init must set every long
        for (int i = 0; i < machines.size(); i++)
        {
            machines.get(i).init(at(state, window, i));
        }
        return window;
    }

    /** Add a trade at {@code time}, the next journal offset. */
    void add(final long[] window, final String symbol, final String side, final long priceCents, final long qty, final long time)
    {
        add(window, symbol, side, priceCents, qty, time, offset++);
    }

    /** Add a trade at {@code time} and journal {@code at}. */
    void add(final long[] window, final String symbol, final String side, final long priceCents, final long qty, final long time,
        final long at)
    {
        trade.time = time;
        trade.longs[PRICE] = priceCents;
        trade.longs[QTY] = qty;
        trade.longs[FEE] = priceCents % 7;
        trade.ids[SYMBOL] = strings.intern(SYMBOL, symbol);
        trade.ids[SIDE] = strings.intern(SIDE, side);
        addFilled(window, trade, at);
    }

    /** Add an event whose columns are set, as the engine does: inputs filled, then every machine's add. */
    void addFilled(final long[] window, final EventView event, final long at)
    {
        final long matched = inputs.fill(event, in);
        columns.wrap(NO_COLUMNS, in, matched, event.eventTime(), at);
        for (int i = 0; i < machines.size(); i++)
        {
            machines.get(i).add(at(state, window, i), 0, columns);
        }
    }

    void merge(final long[] into, final long[] from)
    {
        for (int i = 0; i < machines.size(); i++)
        {
            machines.get(i).merge(at(state, into, i), at(other, from, i));
        }
    }

    /** @return aggregate i's value, unscaled at its scale, or null when empty. */
    Long result(final long[] window, final int i)
    {
        final Aggregation machine = machines.get(i);
        if (!machine.hasValue(at(state, window, i)))
        {
            assert machine.result(state) == 0 : "an empty aggregate's result is 0";
            return null;
        }
        return machine.result(at(state, window, i));
    }

    /** @return a checksum of every aggregate's value and presence, allocating nothing. */
    long checksum(final long[] window)
    {
        long sum = 0;
        for (int i = 0; i < machines.size(); i++)
        {
            final Aggregation machine = machines.get(i);
            sum = sum * 31 + (machine.hasValue(at(state, window, i)) ? 1 : 0) + machine.result(at(state, window, i));
        }
        return sum;
    }

    /** @return every aggregate's value, {@code null} when empty, as text at its scale. */
    List<String> results(final long[] window)
    {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < machines.size(); i++)
        {
            final Long value = result(window, i);
            out.add(value == null ? null : java.math.BigDecimal.valueOf(value, bound.scale(i)).toPlainString());
        }
        return out;
    }

    private AggregationState at(final AggregationState flyweight, final long[] window, final int i)
    {
        return flyweight.wrap(window, starts[i], machines.get(i).stateLongs());
    }

    /** One trade. */
    static final class Trade implements EventView
    {
        long time;
        final long[] longs = new long[SCHEMA.size()];
        final int[] ids = new int[SCHEMA.size()];

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
            return longs[column];
        }

        @Override
        public int stringId(final int column)
        {
            return ids[column];
        }
    }

    /** Dictionaries of the string columns. */
    static final class Strings implements StringTexts
    {
        private final List<List<String>> byColumn = new ArrayList<>();

        int intern(final int column, final String text)
        {
            while (byColumn.size() <= column)
            {
                byColumn.add(new ArrayList<>());
            }
            final List<String> texts = byColumn.get(column);
            final int id = texts.indexOf(text);
            if (id >= 0)
            {
                return id;
            }
            texts.add(text);
            return texts.size() - 1;
        }

        @Override
        public int idOf(final int column, final String text)
        {
            return column < byColumn.size() ? byColumn.get(column).indexOf(text) : -1;
        }

        @Override
        public CharSequence textOf(final int column, final int id)
        {
            return byColumn.get(column).get(id);
        }

        @Override
        public int definedCount(final int column)
        {
            return column < byColumn.size() ? byColumn.get(column).size() : 0;
        }
    }
}
