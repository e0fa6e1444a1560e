package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded generator of journals with tables: the window streams of {@link StreamGenerator} with
 * {@link Heartbeats} (out of order within and beyond the lateness), each event given a card, a merchant, a
 * currency, a tier and a country, and table rows appended between them. The same seed and kind always give the
 * same case. Test-only; shares no code with the engine.
 *
 * <p>Two tables: {@link #CARDS}, keyed by the string {@code card}, and {@link #FX}, keyed by the composite
 * {@code ccy} (string), {@code tier} (long). Rows are valid from the past, from now, from the future, from 0,
 * from the time of an event still to come, and from the same time as an earlier row of their key; one in six
 * is a tombstone; some keys never appear in an event, some events' keys get their first row only after the
 * event; some rows come before any event.
 */
public final class JoinStreamGenerator
{
    /** {@code cards}: a card's home country, limit and segment; missing rows read home ZZ and limit 5.00. */
    public static final ModelTable CARDS = new ModelTable("cards", List.of("card"), List.of(
        new ModelTable.Column("card", "string", "", null),
        new ModelTable.Column("home", "string", "ZZ", "ZZ"),
        new ModelTable.Column("limit", "decimal(2)", 500L, "5.00"),
        new ModelTable.Column("segment", "string", "", null)));
    /** {@code fx}: a rate per currency and tier; missing rows read rate 1.0000. */
    public static final ModelTable FX = new ModelTable("fx", List.of("ccy", "tier"), List.of(
        new ModelTable.Column("ccy", "string", "", null),
        new ModelTable.Column("tier", "long", 0L, null),
        new ModelTable.Column("rate", "decimal(4)", 10_000L, "1.0000")));
    /** The events' columns but event_id and event_time, in order; the model's value is {@code amount}. */
    public static final String EVENT_COLUMNS = "card:string,merchant:string,ccy:string,tier:long,amount:decimal(2),country:string";

    private static final String[] COUNTRIES = {"FR", "DE", "ES"};
    private static final String[] CURRENCIES = {"EUR", "USD", "JPY"};
    private static final long[] TIERS = {0, 1, 1_000_000_000_000L};

    private JoinStreamGenerator()
    {
    }

    /**
     * @param seed the seed; the same seed and kind give the same case.
     * @param kind the window kind.
     * @return a random journal with tables, and its configuration.
     */
    public static JoinCase generate(final long seed, final WindowKind kind)
    {
        final GeneratedCase base = Heartbeats.sprinkle(StreamGenerator.generate(seed, kind), seed ^ 0x5DEECE66DL);
        final SplittableRandom r = new SplittableRandom(seed * 31 + 17);
        final boolean byCard = r.nextBoolean();
        final List<String> cards = new ArrayList<>();
        if (byCard)
        {
            final LinkedHashSet<String> keys = new LinkedHashSet<>();
            base.events().stream().filter(e -> !e.isHeartbeat()).forEach(e -> keys.add(e.key()));
            cards.addAll(keys);
        }
        else
        {
            for (int i = 0, n = 1 + r.nextInt(6); i < n; i++)
            {
                cards.add("card-" + i);
            }
        }
        final Rows rows = new Rows(r, cards, base.events());
        final List<JournalEntry> journal = new ArrayList<>();
        final int oneIn = 1 + r.nextInt(4);
        if (r.nextBoolean())
        {
            rows.append(journal, 0, 1 + r.nextInt(6)); // rows before any event
        }
        for (int i = 0; i < base.events().size(); i++)
        {
            if (r.nextInt(oneIn) == 0)
            {
                rows.append(journal, i, 1 + r.nextInt(3));
            }
            final ModelEvent e = base.events().get(i);
            rows.saw(e);
            if (e.isHeartbeat())
            {
                journal.add(new JoinEvent(e, Map.of()));
                continue;
            }
            final Map<String, Object> columns = new HashMap<>();
            columns.put("card", byCard ? e.key() : cards.get(r.nextInt(cards.size())));
            columns.put("merchant", byCard ? "m-" + r.nextInt(3) : e.key());
            columns.put("ccy", CURRENCIES[r.nextInt(CURRENCIES.length)]);
            columns.put("tier", TIERS[r.nextInt(TIERS.length)]);
            columns.put("country", COUNTRIES[r.nextInt(COUNTRIES.length)]);
            journal.add(new JoinEvent(e, columns));
        }
        if (r.nextBoolean())
        {
            rows.append(journal, base.events().size(), 1 + r.nextInt(3)); // rows after the last event: read, never used
        }
        return new JoinCase(seed, base.config(), byCard ? "card" : "merchant", List.of(CARDS, FX), journal);
    }

    /** Makes table rows; remembers each key's valid-from times for rows that repeat one. */
    private static final class Rows
    {
        final SplittableRandom r;
        final List<String> cards;
        final List<ModelEvent> events;
        final Map<List<Object>, List<Long>> validFroms = new HashMap<>();
        long newest;

        Rows(final SplittableRandom r, final List<String> cards, final List<ModelEvent> events)
        {
            this.r = r;
            this.cards = cards;
            this.events = events;
        }

        void saw(final ModelEvent e)
        {
            newest = Math.max(newest, e.eventTime());
        }

        /** Appends n rows, before the event at {@code next}. */
        void append(final List<JournalEntry> journal, final int next, final int n)
        {
            for (int i = 0; i < n; i++)
            {
                journal.add(r.nextInt(3) == 0 ? fx(next) : card(next));
            }
        }

        ModelTableRow card(final int next)
        {
            final String card = r.nextInt(8) == 0 || cards.isEmpty() ? "ghost-" + r.nextInt(3) : cards.get(r.nextInt(cards.size()));
            final Map<String, Object> values = new HashMap<>();
            values.put("card", card);
            values.put("home", COUNTRIES[r.nextInt(COUNTRIES.length)]);
            values.put("limit", (long)r.nextInt(200_001) - 1_000);
            values.put("segment", r.nextBoolean() ? "gold" : "std");
            return row("cards", List.of(card), values, next);
        }

        ModelTableRow fx(final int next)
        {
            final String ccy = r.nextInt(8) == 0 ? "CHF" : CURRENCIES[r.nextInt(CURRENCIES.length)];
            final long tier = r.nextInt(8) == 0 ? 5 : TIERS[r.nextInt(TIERS.length)];
            final Map<String, Object> values = new HashMap<>();
            values.put("ccy", ccy);
            values.put("tier", tier);
            values.put("rate", r.nextInt(20) == 0 ? Long.MAX_VALUE / 3 : 1 + r.nextInt(30_000));
            return row("fx", List.of(ccy, tier), values, next);
        }

        ModelTableRow row(final String table, final List<Object> key, final Map<String, Object> values, final int next)
        {
            final List<Object> id = new ArrayList<>(key);
            id.add(0, table);
            final List<Long> earlier = validFroms.computeIfAbsent(id, k -> new ArrayList<>());
            final long validFrom = switch (r.nextInt(7))
            {
                case 0 -> 0;
                case 1 -> Math.max(0, newest - r.nextInt(200)); // from the past
                case 2 -> newest + 1 + r.nextInt(200);           // from the future
                case 3 -> earlier.isEmpty() ? newest : earlier.get(r.nextInt(earlier.size())); // the same valid-from twice
                case 4 -> next < events.size() ? events.get(Math.min(events.size() - 1, next + r.nextInt(5))).eventTime() : newest;
                default -> newest;
            };
            earlier.add(validFrom);
            return new ModelTableRow(table, validFrom, r.nextInt(6) == 0, values);
        }
    }
}
