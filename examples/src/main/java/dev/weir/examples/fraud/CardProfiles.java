package dev.weir.examples.fraud;

import dev.weir.journal.schema.TableDefinition;

/**
 * The card profile table, {@code cards}: one row per card, keyed by {@code card}, with its home country, its spend
 * limit and its segment ({@value #COLUMNS}). A card's profile as issued follows from its number: its home is
 * {@code COUNTRIES[card % 5]}; one card in 20 is {@code premium} (limit 20,000.00), one in 20 {@code student}
 * (1,000.00), the others {@code standard} (5,000.00). {@link Payments} says which profiles change during the stream.
 * <p>
 * Stateless and thread-safe.
 */
final class CardProfiles
{
    /** The table's columns; {@code card} is its key, named like the payments' column that joins it. */
    static final String COLUMNS = "card:string,home:string,limit:decimal(2),segment:string";
    /** The table's definition: its name, which expressions qualify its columns with ({@code cards.limit}), its key and columns. */
    static final TableDefinition TABLE = TableDefinition.parse("cards", "card", COLUMNS);
    /** The segments. */
    static final String[] SEGMENTS = {"standard", "premium", "student"};
    /** The segments' limits, in cents. */
    static final long[] SEGMENT_LIMIT_CENTS = {5_000_00, 20_000_00, 1_000_00};
    /** The limit of a card whose limit is raised during the stream: 20,000.00. */
    static final long RAISED_LIMIT_CENTS = 20_000_00;

    private CardProfiles()
    {
    }

    /**
     * @param card a card number.
     * @return its home country as issued, an index in {@link Payments#COUNTRIES}.
     */
    static int home(final int card)
    {
        return card % Payments.COUNTRIES.length;
    }

    /**
     * @param card a card number.
     * @return its segment, an index in {@link #SEGMENTS}.
     */
    static int segment(final int card)
    {
        return card % 20 == 7 ? 1 : card % 20 == 13 ? 2 : 0;
    }

    /**
     * @param card a card number.
     * @return its limit as issued, in cents.
     */
    static long limitCents(final int card)
    {
        return SEGMENT_LIMIT_CENTS[segment(card)];
    }
}
