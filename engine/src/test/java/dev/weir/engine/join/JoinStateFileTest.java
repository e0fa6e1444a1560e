package dev.weir.engine.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.Map;
import java.util.SplittableRandom;

import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;
import dev.weir.test.golden.GoldenBytes;
import dev.weir.test.golden.GoldenBytes.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join-state file: written from a fixed state, it is the committed bytes of its version
 * ({@code src/test/resources/golden-bytes/join-state-v1.hex}), and every committed version reads back into a state
 * that answers every lookup as the state written does; a seeded state (rows valid from the past and the future,
 * tombstones, dead versions not freed yet) reads back exactly; a file of another configuration, a torn one and a
 * corrupt one are refused, each with its reason.
 */
class JoinStateFileTest
{
    private static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string=XX,limit:decimal(2)");
    private static final TableDefinition SHOPS = TableDefinition.parse("shops", "shop", "shop:long,risk:long");
    private static final String CONFIGURATION = "join 0 cards on cards(card=card)\njoin 1 shops on shops(shop=shop)\nhorizon 100 200 1000";
    private static final String[] CARD_TEXTS = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"};
    private static final String[] HOMES = {"FR", "DE", "NL"};

    private final GoldenBytes golden = GoldenBytes.ofThisModule();

    @TempDir
    Path dir;

    @Test
    void theFileOfAFixedStateIsTheCommittedBytesAndEveryCommittedVersionReadsBackExactly() throws Exception
    {
        final TableJoins written = fixed();
        assertEquals(5, written.joins()[0].versions().versions(), "the dead version of c2 is held");
        final Path file = dir.resolve("join-41.bin");
        JoinStateFile.write(file, CONFIGURATION, 41, written);
        golden.check("join-state", JoinStateFile.VERSION, List.of(new Sample("offset 41; cards (string key) and shops (long key); rows"
            + " at 1000, 1500, 900 (past), 5000 (future), a tombstone at 1200, a dead version not freed; greatest time 2500", Files.readAllBytes(file))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("join-state").entrySet())
        {
            final Path committed = dir.resolve("committed-" + version.getKey() + ".bin");
            Files.write(committed, version.getValue().get(0));
            final TableJoins read = empty();
            JoinStateFile.read(committed, CONFIGURATION, 41, read);
            assertSameLookups(written, read);
            assertEquals(41, read.lastRead());
        }
    }

    @Test
    void aSeededStateReadsBackAnsweringEveryLookupAsTheStateWritten() throws Exception
    {
        final TableJoins written = empty();
        final SplittableRandom random = new SplittableRandom(11);
        final Row row = new Row();
        final CardShopEvent event = new CardShopEvent();
        long time = 10_000;
        for (int i = 0; i < 5_000; i++)
        {
            time += random.nextInt(5);
            if (random.nextInt(4) == 0)
            {
                row.set(random.nextInt(2), random.nextInt(CARD_TEXTS.length), time + random.nextInt(-1_500, 1_500), random.nextInt(9) == 0,
                    random.nextInt(HOMES.length), random.nextInt(1, 1_000));
                written.onTableRow(i, row);
            }
            else
            {
                written.join(i, event.set(time - random.nextInt(300), random.nextInt(CARD_TEXTS.length + 2), random.nextInt(CARD_TEXTS.length)));
            }
        }
        final Path file = dir.resolve("join-4999.bin");
        JoinStateFile.write(file, CONFIGURATION, 4_999, written);
        final TableJoins read = empty();
        JoinStateFile.read(file, CONFIGURATION, 4_999, read);
        assertEquals(written.horizon().maxTime(), read.horizon().maxTime());
        assertEquals(written.entries(), read.entries(), "versions, keys and texts");
        assertSameLookups(written, read);
    }

    @Test
    void besideTheThreeNewestTheFileALaggingCheckpointNeedsIsKept() throws Exception
    {
        // a crash resumes from a checkpoint up to twice its interval behind the reading: the three newest files may
        // all be newer than it, so the newest file written at least that lag ago is kept too
        final Path files = dir.resolve("join-state");
        final TableJoins state = fixed();
        final JoinSnapshots run = new JoinSnapshots(files, CONFIGURATION, 1, 1_000);
        try
        {
            for (int i = 1; i <= 10; i++)
            {
                run.write(state, 100L * i, 300L * i); // offsets 100 to 1000, read after 300 to 3000 documents
            }
        }
        finally
        {
            run.close();
        }
        // milestones at least 500 documents apart: 300, 900, 1500, 2100, 2700 documents in (offsets 100, 300, 500,
        // 700, 900); the newest at least 1,000 before the last (3,000) is offset 500, kept with the newer milestones
        assertEquals(new TreeSet<>(List.of(500L, 700L, 800L, 900L, 1_000L)), new TreeSet<>(run.offsets()),
            "the three newest, the newest milestone at least 1,000 documents before the last, and the milestones after it");

        final JoinSnapshots next = new JoinSnapshots(files, CONFIGURATION, 1, 1_000);
        try
        {
            next.resumingAt(701); // as restore does: it resumes from offset 700's file
            next.write(state, 1_100, 300);
            next.write(state, 1_200, 600);
            next.write(state, 1_300, 900);
            next.write(state, 1_400, 1_200);
        }
        finally
        {
            next.close();
        }
        // milestones 1,100 (300 documents) and 1,300 (900); none 1,000 documents old yet: the file it resumed from
        // (700) stays, for a crash before its first checkpoint
        assertEquals(new TreeSet<>(List.of(700L, 1_100L, 1_200L, 1_300L, 1_400L)), new TreeSet<>(next.offsets()),
            "a new run keeps the file it resumed from and its own milestones until one of its own is old enough");
    }

    @Test
    void aFileOfAnotherConfigurationATornOneAndACorruptOneAreRefused() throws Exception
    {
        final Path file = dir.resolve("join-41.bin");
        JoinStateFile.write(file, CONFIGURATION, 41, fixed());
        assertEquals("of another join configuration (" + CONFIGURATION + ")",
            refused(file, CONFIGURATION.replace("horizon 100", "horizon 101"), 41));
        assertEquals("of offset 41, not the 42 of its name", refused(file, CONFIGURATION, 42));
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 1;
        Files.write(file, bytes);
        assertEquals("corrupt or torn (checksum mismatch)", refused(file, CONFIGURATION, 41));
        Files.write(file, java.util.Arrays.copyOf(bytes, 10));
        assertEquals("torn (10 bytes)", refused(file, CONFIGURATION, 41));
    }

    private static String refused(final Path file, final String configuration, final long offset)
    {
        return assertThrows(JoinStateFile.Unusable.class, () -> JoinStateFile.read(file, configuration, offset, empty())).getMessage();
    }

    /** Every event a grid of keys and times makes answers the same row, or none, in both states. */
    private static void assertSameLookups(final TableJoins written, final TableJoins read)
    {
        final CardShopEvent event = new CardShopEvent();
        final List<String> was = new ArrayList<>();
        final List<String> is = new ArrayList<>();
        int joined = 0;
        for (long time = 0; time < 20_000; time += 50)
        {
            for (int key = 0; key < CARD_TEXTS.length + 2; key++)
            {
                event.set(time, key, key % CARD_TEXTS.length);
                joined += lookup(written, event, was) ? 1 : 0;
                lookup(read, event, is);
            }
        }
        assertEquals(was, is);
        assertTrue(joined > 0, "lookups found rows");
    }

    private static boolean lookup(final TableJoins state, final CardShopEvent event, final List<String> answers)
    {
        final AsOfJoin cards = state.joins()[0];
        final AsOfJoin shops = state.joins()[1];
        final long horizon = state.horizon().horizon();
        final boolean card = cards.find(event, horizon);
        final boolean shop = shops.find(event, horizon);
        answers.add(card + " " + cards.texts(1).text(cards.stringId(1)) + " " + cards.longColumn(2) + " " + shop + " " + shops.longColumn(1));
        return card || shop;
    }

    /** Rows of both tables, one valid from the past, one from the future, a tombstone, a version made dead. */
    private static TableJoins fixed()
    {
        final TableJoins state = empty();
        final Row row = new Row();
        state.onTableRow(0, row.set(0, 1, 1_000, false, 0, 500));
        state.onTableRow(1, row.set(0, 1, 1_500, false, 1, 700));
        state.onTableRow(2, row.set(0, 2, 900, false, 2, 100));
        state.onTableRow(3, row.set(0, 3, 5_000, false, 0, 900));
        state.onTableRow(4, row.set(0, 2, 1_200, true, 0, 0));
        state.onTableRow(5, row.set(1, 4, 1_000, false, 0, 3));
        state.onHeartbeat(6, 2_500); // horizon 1200: the card c2 row at 900 is dead (the tombstone at 1200), not freed yet
        state.onTableRow(7, row.set(1, 4, 1_100, false, 0, 4));
        state.join(41, new CardShopEvent().set(1_650, 1, 4));
        return state;
    }

    private static TableJoins empty()
    {
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
                return id < CARD_TEXTS.length ? CARD_TEXTS[id] : "never-" + id;
            }

            @Override
            public int definedCount(final int column)
            {
                return CARD_TEXTS.length + 2;
            }
        };
        final AsOfJoin[] joins = {new AsOfJoin(0, CARDS, new int[] {0}, eventTexts), new AsOfJoin(1, SHOPS, new int[] {1}, eventTexts)};
        return new TableJoins(new Horizon(100, 200, 1_000), joins, 2, JoinMissing.KEEP);
    }

    /** A table row: of cards (key {@link #key}'s text) or shops (key {@link #key}). */
    private static final class Row implements TableRowView
    {
        private int table;
        private int key;
        private long from;
        private boolean tombstone;
        private int home;
        private long value;

        Row set(final int table, final int key, final long from, final boolean tombstone, final int home, final long value)
        {
            this.table = table;
            this.key = key;
            this.from = from;
            this.tombstone = tombstone;
            this.home = home;
            this.value = value;
            return this;
        }

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
            return tombstone;
        }

        @Override
        public long longColumn(final int column)
        {
            return column == 0 ? key : value;
        }

        @Override
        public CharSequence string(final int column)
        {
            return column == 0 ? CARD_TEXTS[key] : HOMES[home];
        }
    }
}
