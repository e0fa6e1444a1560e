package dev.weir.engine.expr;

import java.math.BigDecimal;

import dev.weir.journal.ColumnType;
import dev.weir.journal.EventView;
import dev.weir.journal.JournalSchema;

/**
 * Compiles expressions from text into {@link EventFilter}s and {@link EventValue}s over a journal's schema.
 * <p>
 * STUB of the pipeline-integration branch: it understands only what that branch's tests need, namely a value
 * that is a column name or two columns joined by {@code +} or {@code -}, and a filter of clauses
 * {@code column = 'text'}, {@code column in ('a', 'b')} or {@code column > number} joined by {@code and}. The
 * expression-language branch replaces it with the full language, under the same signatures.
 * Stateless and thread-safe; what it returns has one owner thread.
 */
public final class Expressions
{
    private Expressions()
    {
    }

    /**
     * @param text   the filter's text.
     * @param schema the journal's schema.
     * @param ids    resolves string literals, on the filter's owner thread.
     * @return the compiled filter; its {@code toString()} is its normalised text.
     * @throws ExpressionException if the text does not parse or type-check.
     */
    public static EventFilter filter(final String text, final JournalSchema schema, final StringIds ids)
    {
        final String[] clauses = text.strip().split("(?i)\\s+and\\s+");
        final EventFilter[] parts = new EventFilter[clauses.length];
        int from = 0;
        for (int i = 0; i < clauses.length; i++)
        {
            final int at = text.indexOf(clauses[i], from);
            parts[i] = clause(clauses[i], at, schema, ids);
            from = at + clauses[i].length();
        }
        final String normalised = String.join(" and ", clauses).replaceAll("\\s+", " ");
        return new EventFilter()
        {
            @Override
            public boolean test(final EventView event)
            {
                for (final EventFilter part : parts)
                {
                    if (!part.test(event))
                    {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public String toString()
            {
                return normalised;
            }
        };
    }

    /**
     * @param text   the value's text.
     * @param schema the journal's schema.
     * @return the compiled value; its {@code toString()} is its normalised text.
     * @throws ExpressionException if the text does not parse or type-check.
     */
    public static EventValue value(final String text, final JournalSchema schema)
    {
        final String[] terms = text.strip().split("\\s*[-+]\\s*");
        final int a = numberColumn(terms[0], text.indexOf(terms[0]), schema);
        if (terms.length == 1)
        {
            return value(event -> event.longColumn(a), schema.column(a).scale(), terms[0]);
        }
        final int b = numberColumn(terms[1], text.lastIndexOf(terms[1]), schema);
        if (terms.length > 2)
        {
            throw new ExpressionException("the stub takes at most two columns", 0);
        }
        final int scale = Math.max(schema.column(a).scale(), schema.column(b).scale());
        final long ma = BigDecimal.ONE.movePointRight(scale - schema.column(a).scale()).longValueExact();
        final long mb = BigDecimal.ONE.movePointRight(scale - schema.column(b).scale()).longValueExact();
        final boolean minus = text.contains("-");
        final String normalised = terms[0] + (minus ? " - " : " + ") + terms[1];
        return minus ? value(event -> event.longColumn(a) * ma - event.longColumn(b) * mb, scale, normalised)
            : value(event -> event.longColumn(a) * ma + event.longColumn(b) * mb, scale, normalised);
    }

    private interface LongOf
    {
        long of(EventView event);
    }

    private static EventValue value(final LongOf of, final int scale, final String normalised)
    {
        return new EventValue()
        {
            @Override
            public long value(final EventView event)
            {
                return of.of(event);
            }

            @Override
            public int scale()
            {
                return scale;
            }

            @Override
            public String toString()
            {
                return normalised;
            }
        };
    }

    private static int numberColumn(final String name, final int at, final JournalSchema schema)
    {
        final int column = column(name, at, schema);
        if (schema.column(column).type() == ColumnType.STRING)
        {
            throw new ExpressionException("expected a long or decimal column, not string column '" + name + "'", at);
        }
        return column;
    }

    private static int column(final String name, final int at, final JournalSchema schema)
    {
        final int column = schema.indexOf(name);
        if (column < 0)
        {
            throw new ExpressionException("no column '" + name + "': the journal's columns are " + schema, at);
        }
        return column;
    }

    private static EventFilter clause(final String clause, final int at, final JournalSchema schema, final StringIds ids)
    {
        final String[] sides = clause.strip().split("\\s*(=|>|(?i)\\s+in\\s+)\\s*", 2);
        if (sides.length != 2)
        {
            throw new ExpressionException("expected a comparison", at);
        }
        final int column = column(sides[0], at, schema);
        if (clause.contains(">"))
        {
            final long bound = new BigDecimal(sides[1]).movePointRight(schema.column(column).scale()).longValueExact();
            return event -> event.longColumn(column) > bound;
        }
        final String list = sides[1].replaceAll("^\\(|\\)$", "");
        final String[] literals = list.split("\\s*,\\s*");
        final StringLiteral[] resolved = new StringLiteral[literals.length];
        for (int i = 0; i < literals.length; i++)
        {
            resolved[i] = new StringLiteral(column, literals[i].strip().replaceAll("^'|'$", ""), ids);
        }
        return event ->
        {
            final int id = event.stringId(column);
            for (final StringLiteral literal : resolved)
            {
                if (literal.matches(id))
                {
                    return true;
                }
            }
            return false;
        };
    }

    /** A string literal's id, resolved again while unknown when an id above any seen before appears. */
    private static final class StringLiteral
    {
        private final int column;
        private final String text;
        private final StringIds ids;
        private int id;
        private int highestSeen = -1;

        StringLiteral(final int column, final String text, final StringIds ids)
        {
            this.column = column;
            this.text = text;
            this.ids = ids;
            this.id = ids.idOf(column, text);
        }

        boolean matches(final int eventId)
        {
            if (id < 0 && eventId > highestSeen)
            {
                highestSeen = eventId;
                id = ids.idOf(column, text);
            }
            return eventId == id;
        }
    }
}
