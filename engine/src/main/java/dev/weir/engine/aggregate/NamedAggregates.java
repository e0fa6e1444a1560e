package dev.weir.engine.aggregate;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.weir.engine.expr.ExpressionColumns;

/**
 * A parsed list of named aggregates, e.g. {@code open=first(price),vwap=sum(price*qty)/sum(qty),trades=count()}:
 * syntax only, no schema ({@link #bind} checks columns, types and scales). Grammar (keywords {@code filter} and
 * {@code where} in any case, function names lower-case, spaces anywhere between tokens):
 * <pre>
 *   list     := named ( "," named )*                  (commas inside parentheses or quotes do not split)
 *   named    := NAME "=" result                       (NAME: [a-z_][a-z0-9_]{0,62}, unique in the list)
 *   result   := term ( ( "+" | "-" ) term )*
 *   term     := unary ( ( "*" | "/" ) unary )*
 *   unary    := "-" unary | call | NAME | number | "(" result ")"
 *   call     := FUNCTION "(" [ VALUE ] ")" [ "filter" "(" "where" FILTER ")" ]
 *   FUNCTION := count | sum | min | max | first | last | avg | approx_distinct
 * </pre>
 * {@code count()} takes no value; {@code approx_distinct} one column; the others a value in the language of
 * {@code --value}; FILTER is in the language of {@code --where}. A NAME in a result is an earlier aggregate of the
 * list, its definition inlined. At most {@link #MAX} aggregates; the names a result row gives other columns
 * ({@code window_start window_end version kind source_offset early event_id event_time}) are refused.
 * <p>
 * Immutable; thread-safe.
 */
public final class NamedAggregates
{
    /** The most named aggregates of one pipeline: a stored result holds one long each, then the presence mask. */
    public static final int MAX = 15;

    private final String list;
    private final List<AggregateParser.Definition> definitions;
    private final List<String> names;
    private final String text;

    private NamedAggregates(final String list, final List<AggregateParser.Definition> definitions)
    {
        this.list = list;
        this.definitions = definitions;
        final List<String> named = new ArrayList<>();
        final StringBuilder normalised = new StringBuilder();
        for (final AggregateParser.Definition definition : definitions)
        {
            named.add(definition.name());
            normalised.append(normalised.length() == 0 ? "" : ",").append(definition.name()).append('=');
            definition.result().render(normalised);
        }
        this.names = List.copyOf(named);
        this.text = normalised.toString();
    }

    /**
     * @param list the list, e.g. {@code total=sum(amount),n=count()}.
     * @return the parsed list.
     * @throws AggregateSyntaxException if it is not a list of named aggregates; the message quotes the list and
     *                                  names the 1-based position of the problem.
     */
    public static NamedAggregates parse(final String list)
    {
        Objects.requireNonNull(list, "list");
        return new NamedAggregates(list, new AggregateParser(list).list());
    }

    /** @return how many named aggregates, 1 to {@link #MAX}. */
    public int size()
    {
        return names.size();
    }

    /** @return their names, in order. */
    public List<String> names()
    {
        return names;
    }

    /**
     * @param name a name.
     * @return its index in the list, or -1 if none.
     */
    public int indexOf(final String name)
    {
        return names.indexOf(name);
    }

    /**
     * @return the normalised list: no spaces but one between two words, around a keyword of a filter ({@code and or
     *         not in}) and before {@code filter}; keywords in lower case; parentheses of results only where needed;
     *         values and filters otherwise as written. Stable: part of the configuration a checkpoint must match.
     */
    public String text()
    {
        return text;
    }

    /**
     * @param columns the columns values and filters may name: the event's, then joined tables' as {@code TABLE.COLUMN}.
     * @return the list bound to them.
     * @throws AggregateSyntaxException (an {@link IllegalArgumentException}) if a column is unknown or of the wrong
     *                                  type, a product has more than 18 decimals, the list has more than 64 different
     *                                  filters, or a result needs more than {@link Aggregation#MAX_STATE_LONGS} longs of state.
     */
    public BoundAggregates bind(final ExpressionColumns columns)
    {
        Objects.requireNonNull(columns, "columns");
        return new AggregateBinder(this, columns).bind();
    }

    /** @return the list as written. */
    String list()
    {
        return list;
    }

    List<AggregateParser.Definition> definitionList()
    {
        return definitions;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
