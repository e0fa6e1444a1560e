package dev.weir.engine.expr;

import java.util.Objects;

import dev.weir.journal.schema.JournalSchema;

/**
 * Compiles filters and values over a journal's events. Grammar (keywords {@code and or not in} in any
 * case, spaces anywhere between tokens):
 * <pre>
 *   filter      := conjunction ( "or" conjunction )*
 *   conjunction := negation ( "and" negation )*
 *   negation    := "not" negation | comparison
 *   comparison  := value ( op value | [ "not" ] "in" "(" literal ( "," literal )* ")" )
 *                | "(" filter ")"
 *   op          := "=" | "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 *   value       := term ( ( "+" | "-" ) term )*                       (the whole of a --value)
 *   term        := unary ( "*" unary )*
 *   unary       := "-" unary | column | number | string | "(" value ")"
 *   column      := a column of the schema, a joined table's TABLE.COLUMN, or event_id, event_time   (case-sensitive)
 *   number      := digits [ "." digits ]
 *   string      := "'" any characters, '' for a quote "'"
 * </pre>
 * Types: a long or decimal column, {@code event_id}, {@code event_time} and a number are numbers with a
 * scale (a decimal's fraction digits; a number literal's as written). {@code +} and {@code -} give the larger
 * scale of their operands (the other is rescaled), {@code *} the sum (at most 18). Arithmetic and rescaling
 * wrap as 64-bit two's complement, as {@code sum} does; a compiled value tells when its last value wrapped
 * ({@link EventValue#wrapped()}), and a part made of literals only that leaves the long range is an error. A number literal compared with a value (or in its
 * {@code in} list) is taken at the value's scale: on a {@code decimal(2)} column {@code 12.5} means 1250,
 * and a literal with more decimals than that scale is an error; two values compare exactly, whatever their
 * scales. A string column compares by {@code =}, {@code !=} or {@code in} with a string literal; the
 * literal is resolved to the column's dictionary id through {@link StringIds}, and while the journal has
 * never held it, it matches no event (so {@code !=} and {@code not in} hold). Compiled with {@link StringTexts}
 * (the overloads over {@link ExpressionColumns}), a string column also compares by {@code =} or {@code !=} with
 * another string column: equal texts are equal, whatever dictionary each column's ids come from.
 * <p>
 * Every problem throws an {@link ExpressionException} with a one-line message and its position.
 * The compiled filter or value allocates nothing when evaluated; its {@code toString()} is the normalised
 * text (lower-case keywords, single spaces, parentheses only where needed, a literal at the scale it is
 * compared at, a literal on the left of a comparison moved to the right).
 * <p>
 * Stateless; thread-safe. A compiled filter or value belongs to one owner thread.
 */
public final class Expressions
{
    private static final StringIds NO_STRINGS = (column, text) -> -1;
    /** Knows no string: for checking a filter before any run. */
    private static final StringTexts NO_TEXTS = new StringTexts()
    {
        @Override
        public int idOf(final int column, final String text)
        {
            return -1;
        }

        @Override
        public CharSequence textOf(final int column, final int id)
        {
            throw new IllegalStateException("a filter checked, not run");
        }

        @Override
        public int definedCount(final int column)
        {
            return 0;
        }
    };

    private Expressions()
    {
    }

    /**
     * @param text   the filter, e.g. {@code channel = 'online' and country in ('FR', 'DE') and amount > 10}.
     * @param schema the schema of the journal whose events it tests.
     * @param ids    resolves its string literals, now and when unknown ones may have appeared.
     * @return the filter; its {@code toString()} is the normalised text.
     * @throws ExpressionException if the text is not a filter over the schema.
     */
    public static EventFilter filter(final String text, final JournalSchema schema, final StringIds ids)
    {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(ids, "ids");
        return new ExpressionParser(text, ExpressionColumns.of(schema), ids, null).filter();
    }

    /**
     * @param text    the filter, e.g. {@code country != cards.home and amount > cards.limit}.
     * @param columns the columns it may name: the event's, then joined tables' as {@code TABLE.COLUMN}.
     * @param strings resolves its string literals (as {@link StringIds}) and gives the text of string ids, so two
     *                string columns compare by text.
     * @return the filter; its {@code toString()} is the normalised text.
     * @throws ExpressionException if the text is not a filter over the columns.
     */
    public static EventFilter filter(final String text, final ExpressionColumns columns, final StringTexts strings)
    {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(strings, "strings");
        return new ExpressionParser(text, columns, strings, strings).filter();
    }

    /**
     * Compiles a filter only to check it, before any run (it is compiled again for each run, with the run's
     * strings).
     *
     * @param text    the filter.
     * @param columns the columns it may name: the event's, then joined tables' as {@code TABLE.COLUMN}.
     * @return its normalised text.
     * @throws ExpressionException if the text is not a filter over the columns.
     */
    public static String check(final String text, final ExpressionColumns columns)
    {
        return filter(text, columns, NO_TEXTS).toString();
    }

    /**
     * @param text   the value, e.g. {@code amount - fee}, or a column's name.
     * @param schema the schema of the journal whose events it reads.
     * @return the value, at its {@link EventValue#scale()}; its {@code toString()} is the normalised text.
     * @throws ExpressionException if the text is not a numeric value over the schema.
     */
    public static EventValue value(final String text, final JournalSchema schema)
    {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(schema, "schema");
        return value(text, ExpressionColumns.of(schema));
    }

    /**
     * @param text    the value, e.g. {@code amount * fx.rate}, or a column's name.
     * @param columns the columns it may name: the event's, then joined tables' as {@code TABLE.COLUMN}.
     * @return the value, at its {@link EventValue#scale()}; its {@code toString()} is the normalised text.
     * @throws ExpressionException if the text is not a numeric value over the columns.
     */
    public static EventValue value(final String text, final ExpressionColumns columns)
    {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(columns, "columns");
        return new ExpressionParser(text, columns, NO_STRINGS, null).value();
    }
}
