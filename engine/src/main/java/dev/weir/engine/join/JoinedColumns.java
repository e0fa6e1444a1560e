package dev.weir.engine.join;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * The columns a pipeline with joins reads: the events' then each joined table's ({@code TABLE.COLUMN}), as the engine
 * configures them and as an export names them. Stateless.
 */
public final class JoinedColumns
{
    /** Knows no text: what an expression is checked against before any run. */
    public static final StringTexts NO_TEXTS = new StringTexts()
    {
        @Override
        public int idOf(final int column, final String text)
        {
            return -1;
        }

        @Override
        public CharSequence textOf(final int column, final int id)
        {
            throw new IllegalStateException("no texts before a run");
        }

        @Override
        public int definedCount(final int column)
        {
            return 0;
        }
    };

    private JoinedColumns()
    {
    }

    /**
     * @param tables the journal's tables, in definition order.
     * @param name   a table's name.
     * @return its index in {@code tables}.
     * @throws IllegalArgumentException naming the tables there are, if there is none of that name.
     */
    public static int table(final List<TableDefinition> tables, final String name)
    {
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++)
        {
            if (tables.get(i).name().equals(name))
            {
                return i;
            }
            names.add(tables.get(i).name());
        }
        throw new IllegalArgumentException("--join " + name + ": the journal has no table " + name
            + (names.isEmpty() ? " (it has none: ingest one with weir ingest --table)" : " (its tables: " + String.join(", ", names) + ")"));
    }

    /**
     * @param events the events' columns.
     * @param tables the journal's tables.
     * @param joined the joined tables' names, in join order.
     * @return the columns expressions name.
     * @throws IllegalArgumentException if a table is not in the journal.
     */
    public static ExpressionColumns of(final JournalSchema events, final List<TableDefinition> tables, final List<String> joined)
    {
        ExpressionColumns columns = ExpressionColumns.of(events);
        for (final String name : joined)
        {
            columns = columns.join(name, tables.get(table(tables, name)).columns());
        }
        return columns;
    }
}
