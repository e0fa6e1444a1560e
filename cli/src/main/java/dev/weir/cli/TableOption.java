package dev.weir.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.weir.journal.schema.TableDefinition;

/**
 * The {@code --table NAME(KEY[,KEY...])=COLUMNS} option of {@code weir run --kafka}: a reference table the run may
 * join, whose rows travel in the source topic ({@code weir produce --table}). Stateless; thread-safe.
 */
final class TableOption
{
    /** The flag. */
    static final String FLAG = "--table";
    /** What a local run says to {@link #FLAG}. */
    static final String NOT_LOCAL = FLAG + " is for --kafka: a local journal's tables come from weir ingest --table";

    private static final Pattern SPEC = Pattern.compile("([^()=]*)\\(([^()=]*)\\)=(.+)");

    private TableOption()
    {
    }

    /**
     * @param specs the texts of each {@code --table}, in order.
     * @return their tables, in order.
     * @throws BadInputException with one message if a spec does not parse, or a table is declared twice.
     */
    static List<TableDefinition> parse(final List<String> specs)
    {
        final List<TableDefinition> tables = new ArrayList<>();
        for (final String spec : specs)
        {
            final TableDefinition table = parse(spec);
            if (tables.stream().anyMatch(t -> t.name().equals(table.name())))
            {
                throw new BadInputException(FLAG + " " + spec + ": table " + table.name() + " is declared twice");
            }
            tables.add(table);
        }
        return tables;
    }

    /**
     * @param spec {@code NAME(KEY[,KEY...])=COLUMNS}, e.g. {@code cards(card)=card:string,limit:decimal(2)}.
     * @return the table.
     * @throws BadInputException with one message if it does not parse.
     */
    static TableDefinition parse(final String spec)
    {
        final Matcher m = SPEC.matcher(spec.strip());
        if (!m.matches())
        {
            throw new BadInputException(FLAG + " " + spec + ": give NAME(KEY[,KEY...])=COLUMNS, e.g. "
                + "'cards(card)=card:string,home:string,limit:decimal(2)'");
        }
        try
        {
            return TableDefinition.parse(m.group(1).strip(), m.group(2).strip(), m.group(3).strip());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(FLAG + " " + spec + ": " + ex.getMessage());
        }
    }
}
