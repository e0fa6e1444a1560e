package dev.weir.engine.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;
import org.junit.jupiter.api.Test;

/**
 * The publisher's join work allocates nothing in steady state, with one join and with two: applying table rows
 * (new versions of known keys, dead ones freed and their slots reused) and looking events up (a string key through
 * the event-id cache, a long key), the horizon moving on; and the state stays bounded while the table is updated.
 */
class JoinAllocationTest
{
    private static final int KEYS = 2_000;
    private static final String[] TEXTS = new String[KEYS + 10];

    static
    {
        for (int i = 0; i < TEXTS.length; i++)
        {
            TEXTS[i] = "card-" + i;
        }
    }

    @Test
    void oneJoinAllocatesNothingPerEventOrRow()
    {
        assertZeroAllocation(false);
    }

    @Test
    void twoJoinsAllocateNothingPerEventOrRow()
    {
        assertZeroAllocation(true);
    }

    private static void assertZeroAllocation(final boolean two)
    {
        final TableDefinition cards = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)");
        final TableDefinition shops = TableDefinition.parse("shops", "shop", "shop:long,risk:long");
        final StringTexts eventTexts = new StringTexts()
        {
            @Override
            public int idOf(final int column, final String text)
            {
                return -1;
            }

            @Override
            public CharSequence textOf(final int column, final int id)
            {
                return TEXTS[id];
            }

            @Override
            public int definedCount(final int column)
            {
                return TEXTS.length;
            }
        };
        final AsOfJoin cardJoin = new AsOfJoin(0, cards, new int[] {0}, eventTexts);
        final AsOfJoin[] joins = two ? new AsOfJoin[] {cardJoin, new AsOfJoin(1, shops, new int[] {1}, eventTexts)} : new AsOfJoin[] {cardJoin};
        final TableJoins state = new TableJoins(new Horizon(100, 200, 1_000), joins, 2, JoinMissing.DROP);
        final Row row = new Row();
        final CardShopEvent event = new CardShopEvent();
        final SplittableRandom random = new SplittableRandom(5);
        long sink = 0;
        long i = 0;
        for (; i < 3_000_000; i++)
        {
            sink += step(state, row, event, random, i);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (; i < 4_000_000; i++)
        {
            sink += step(state, row, event, random, i);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertEquals(0, allocated, "bytes allocated over 1,000,000 events and 100,000 table rows");
        assertTrue(sink > 0, "events joined rows");
        assertTrue(cardJoin.versions().versions() < 3 * KEYS, "versions held: " + cardJoin.versions().versions());
    }

    /** A row every tenth step, else an event; @return 1 if the event joined. */
    private static long step(final TableJoins state, final Row row, final CardShopEvent event, final SplittableRandom random, final long i)
    {
        final long time = 1_000_000 + i / 20 - random.nextInt(120);
        if (i % 10 == 0)
        {
            row.table = (int)(i / 10 % 2);
            row.key = random.nextInt(KEYS);
            row.from = time - random.nextInt(500) + random.nextInt(300);
            row.text.setLength(0);
            row.text.append(TEXTS[row.key]);
            state.onTableRow(i, row);
            return 0;
        }
        event.time = time;
        event.key = random.nextInt(KEYS + 10); // ten cards never get a row
        event.shop = random.nextInt(KEYS);
        if (state.join(i, event))
        {
            return state.view().longColumn(4) >= 0 ? 1 : 0;
        }
        return 0;
    }

    /** A table row: of cards (key text of {@link #key}) or shops (key {@link #key}), valid from {@link #from}. */
    private static final class Row implements TableRowView
    {
        int table;
        int key;
        long from;
        final StringBuilder text = new StringBuilder();

        @Override
        public int table()
        {
            return table;
        }

        @Override
        public long validFrom()
        {
            return from;
        }

        @Override
        public boolean tombstone()
        {
            return from % 17 == 0;
        }

        @Override
        public long longColumn(final int column)
        {
            return table == 0 ? 100 * key : column == 0 ? key : key % 10;
        }

        @Override
        public CharSequence string(final int column)
        {
            return column == 0 ? text : "FR";
        }
    }
}
