package dev.weir.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * The as-of join model ({@link AsOfJoinModel}, {@link ModelJoins}) on hand-made journals whose answers are
 * worked out by hand, and its generator ({@link JoinStreamGenerator}) on coverage: a model that is wrong, or a
 * generator that never makes a case, fails here before it is trusted to judge the engine.
 */
class AsOfJoinModelTest
{
    private static final List<ModelTable> TABLES = List.of(JoinStreamGenerator.CARDS, JoinStreamGenerator.FX);
    private static final List<ModelJoin> CARDS = List.of(new ModelJoin("cards", List.of("card")));
    private static final long LAG = 10;

    @Test
    void anEventJoinsTheRowWithTheGreatestValidFromAtOrBeforeItsTime()
    {
        final List<JournalEntry> j = List.of(card("c1", 0, "FR"), card("c1", 100, "DE"), card("c1", 200, "ES"),
            event(1, 99, "c1"), event(2, 100, "c1"), event(3, 150, "c1"), event(4, 200, "c1"), event(5, 201, "c1"));
        assertEquals(List.of("FR", "DE", "DE", "ES", "ES"), homes(j, 1_000));
    }

    @Test
    void ofTwoRowsWithTheSameValidFromTheLaterAppendedWins()
    {
        final List<JournalEntry> j = List.of(card("c1", 50, "FR"), card("c1", 50, "DE"), event(1, 60, "c1"), card("c1", 50, "ES"),
            event(2, 60, "c1"));
        assertEquals(List.of("DE", "ES"), homes(j, 1_000));
    }

    @Test
    void aTombstoneRemovesTheKeyFromItsTimeOn()
    {
        final List<JournalEntry> j = List.of(card("c1", 0, "FR"), tombstone("c1", 100), card("c1", 200, "DE"),
            event(1, 99, "c1"), event(2, 100, "c1"), event(3, 199, "c1"), event(4, 200, "c1"));
        assertEquals(List.of("FR", "-", "-", "DE"), homes(j, 1_000));
    }

    @Test
    void onlyRowsAppendedBeforeTheEventCountEvenWhenValidFromThePast()
    {
        final List<JournalEntry> j = List.of(event(1, 100, "c1"), card("c1", 0, "FR"), event(2, 100, "c1"), card("c1", 50, "DE"),
            event(3, 100, "c1"), card("c1", 101, "ES"), event(4, 100, "c1"), event(5, 100, "nobody"));
        assertEquals(List.of("-", "FR", "DE", "DE", "-"), homes(j, 1_000));
    }

    @Test
    void aRowWhoseSuccessorIsAtOrBeforeTheHorizonIsDead()
    {
        // maxTime 100 (read before, by the event of card x), lag 10: horizon 90. The row from 0 has its successor at 90:
        // dead; at 91 it lives.
        final List<JournalEntry> dead = List.of(card("c1", 0, "FR"), card("c1", 90, "DE"), event(1, 100, "x"), event(2, 40, "c1"),
            event(3, 95, "c1"));
        assertEquals(List.of("-", "-", "DE"), homes(dead, LAG));
        final List<JournalEntry> alive = List.of(card("c1", 0, "FR"), card("c1", 91, "DE"), event(1, 100, "x"), event(2, 40, "c1"));
        assertEquals(List.of("-", "FR"), homes(alive, LAG));
        // heartbeats move maxTime too; a row without a successor never dies
        final List<JournalEntry> heartbeat = List.of(card("c1", 0, "FR"), card("c1", 90, "DE"), JoinEvent.heartbeat(100),
            event(2, 40, "c1"), card("c2", 0, "ES"), event(3, 5, "c2"));
        assertEquals(List.of("-", "ES"), homes(heartbeat, LAG));
        // a successor appended after the event does not count
        final List<JournalEntry> later = List.of(card("c1", 0, "FR"), event(1, 100, "x"), event(2, 40, "c1"), card("c1", 50, "DE"));
        assertEquals(List.of("-", "FR"), homes(later, LAG));
    }

    @Test
    void aCompositeKeyMatchesOnEveryColumn()
    {
        final List<ModelJoin> fx = List.of(new ModelJoin("fx", List.of("ccy", "tier")));
        final List<JournalEntry> j = List.of(fx("EUR", 1, 0, 12_000), fx("EUR", 0, 0, 9_000), fx("USD", 1, 0, 7_000),
            event(1, 10, "c1", "EUR", 1), event(2, 10, "c1", "EUR", 0), event(3, 10, "c1", "USD", 0));
        final List<String> rates = new ArrayList<>();
        for (final AsOfJoinModel.Joined joined : AsOfJoinModel.join(j, TABLES, fx, 1_000))
        {
            rates.add(joined.rows().get(0).map(r -> r.get("rate").toString()).orElse("-"));
        }
        assertEquals(List.of("12000", "9000", "-"), rates);
    }

    @Test
    void dropCountsTheUnmatchedKeepReadsDefaultsAndBothStillMoveTheWatermark()
    {
        final List<JournalEntry> j = List.of(card("c1", 0, "FR"), event(1, 10, "c1"), event(2, 20, "nobody"), event(3, 30, "c1"));
        final List<AsOfJoinModel.Joined> joined = AsOfJoinModel.join(j, TABLES, CARDS, 1_000);

        final ModelJoins.Outcome drop = ModelJoins.apply(joined, TABLES, CARDS, false, c -> c.event().eventId() != 3,
            c -> c.longOf("amount") + c.longOf("cards.limit"));
        assertEquals(1, drop.unmatched());
        assertEquals(1, drop.filtered());
        assertEquals(List.of(new ModelEvent(1, 10, "c1", 10), ModelEvent.heartbeat(20), ModelEvent.heartbeat(30)), drop.stream());

        final ModelJoins.Outcome keep = ModelJoins.apply(joined, TABLES, CARDS, true, c -> !c.stringOf("cards.home").equals("FR"),
            c -> c.longOf("cards.limit"));
        assertEquals(0, keep.unmatched());
        assertEquals(2, keep.filtered());
        assertEquals(List.of(ModelEvent.heartbeat(10), new ModelEvent(2, 20, "nobody", 500), ModelEvent.heartbeat(30)), keep.stream());
    }

    @Test
    void theGeneratorIsDeterministic()
    {
        for (final WindowKind kind : WindowKind.values())
        {
            assertEquals(JoinStreamGenerator.generate(42, kind), JoinStreamGenerator.generate(42, kind));
            assertNotEquals(JoinStreamGenerator.generate(42, kind).journal(), JoinStreamGenerator.generate(43, kind).journal());
        }
    }

    @Test
    void theGeneratorMakesEveryCaseTheRuleDistinguishes()
    {
        final int[] seen = new int[10];
        final List<ModelJoin> both = List.of(new ModelJoin("cards", List.of("card")), new ModelJoin("fx", List.of("ccy", "tier")));
        for (int seed = 0; seed < 300; seed++)
        {
            final JoinCase c = JoinStreamGenerator.generate(seed, WindowKind.values()[seed % 3]);
            final List<AsOfJoinModel.Joined> joined = AsOfJoinModel.join(c.journal(), c.tables(), both, c.horizonLag());
            final List<AsOfJoinModel.Joined> noHorizon = AsOfJoinModel.join(c.journal(), c.tables(), both, Long.MAX_VALUE / 4);
            long newest = 0;
            final java.util.Set<String> rowKeys = new java.util.HashSet<>();
            final java.util.Set<String> eventCards = new java.util.HashSet<>();
            final java.util.Set<String> validFroms = new java.util.HashSet<>();
            boolean anyEvent = false;
            for (final JournalEntry e : c.journal())
            {
                if (e instanceof ModelTableRow row)
                {
                    seen[0] += row.tombstone() ? 1 : 0;
                    seen[1] += row.validFrom() > newest && anyEvent ? 1 : 0;
                    seen[2] += !validFroms.add(row.table() + row.key(AsOfJoinModel.table(c.tables(), row.table())) + "@" + row.validFrom()) ? 1 : 0;
                    seen[3] += anyEvent ? 0 : 1;
                    if (row.table().equals("cards"))
                    {
                        rowKeys.add((String)row.values().get("card"));
                    }
                }
                else if (e instanceof JoinEvent ev && !ev.isHeartbeat())
                {
                    anyEvent = true;
                    newest = Math.max(newest, ev.event().eventTime());
                    eventCards.add((String)ev.column("card"));
                }
            }
            rowKeys.removeAll(eventCards);
            seen[4] += rowKeys.size(); // keys that never appear in an event
            for (int i = 0; i < joined.size(); i++)
            {
                final AsOfJoinModel.Joined a = joined.get(i);
                if (!a.event().isHeartbeat())
                {
                    seen[5] += a.rows().get(0).isPresent() ? 1 : 0;
                    seen[6] += a.rows().get(0).isEmpty() ? 1 : 0;
                    seen[7] += a.matched() ? 1 : 0;
                    seen[8] += !a.rows().equals(noHorizon.get(i).rows()) ? 1 : 0; // the horizon decided
                    seen[9] += a.rows().get(0).isEmpty() && cardRowLater(c, a.event()) ? 1 : 0;
                }
            }
        }
        for (int i = 0; i < seen.length; i++)
        {
            assertTrue(seen[i] > 0, "case " + i + " never generated: tombstone, future row, same valid-from twice, row before any event, "
                + "key in no event, matched card, unmatched card, both matched, horizon decided, a card whose row comes after its event");
        }
    }

    /** @return true if a row of the event's card is appended after it. */
    private static boolean cardRowLater(final JoinCase c, final JoinEvent event)
    {
        final List<JournalEntry> after = c.journal().subList(c.journal().indexOf(event) + 1, c.journal().size());
        return after.stream().anyMatch(e -> e instanceof ModelTableRow row && row.table().equals("cards") && row.values().get("card").equals(event.column("card")));
    }

    private static List<String> homes(final List<JournalEntry> journal, final long lag)
    {
        final List<String> homes = new ArrayList<>();
        for (final AsOfJoinModel.Joined j : AsOfJoinModel.join(journal, TABLES, CARDS, lag))
        {
            if (!j.event().isHeartbeat())
            {
                final Optional<Map<String, Object>> row = j.rows().get(0);
                homes.add(row.map(r -> (String)r.get("home")).orElse("-"));
            }
        }
        return homes;
    }

    private static ModelTableRow card(final String card, final long validFrom, final String home)
    {
        return new ModelTableRow("cards", validFrom, false, Map.of("card", card, "home", home, "limit", 5L, "segment", "gold"));
    }

    private static ModelTableRow tombstone(final String card, final long validFrom)
    {
        return new ModelTableRow("cards", validFrom, true, Map.of("card", card, "home", "", "limit", 0L, "segment", ""));
    }

    private static ModelTableRow fx(final String ccy, final long tier, final long validFrom, final long rate)
    {
        return new ModelTableRow("fx", validFrom, false, Map.of("ccy", ccy, "tier", tier, "rate", rate));
    }

    private static JoinEvent event(final long id, final long time, final String card)
    {
        return event(id, time, card, "EUR", 0);
    }

    private static JoinEvent event(final long id, final long time, final String card, final String ccy, final long tier)
    {
        return new JoinEvent(new ModelEvent(id, time, card, 5), Map.of("card", card, "merchant", "m", "ccy", ccy, "tier", tier, "country", "FR"));
    }
}
