package dev.weir.check;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of a results CSV into its fields, reading RFC 4180 quoting as Weir writes it: a field
 * holding a comma or a quote is quoted, its quotes doubled. Stateless and thread-safe.
 */
final class RowFields
{
    private RowFields()
    {
    }

    /**
     * @param line a CSV line without its line end.
     * @return its fields, unquoted; or null if a quoted field is not closed, or text follows its closing quote.
     */
    static List<String> split(final String line)
    {
        final List<String> fields = new ArrayList<>();
        final StringBuilder field = new StringBuilder();
        int i = 0;
        while (true)
        {
            field.setLength(0);
            if (i < line.length() && line.charAt(i) == '"')
            {
                i++;
                while (true)
                {
                    if (i >= line.length())
                    {
                        return null; // unterminated quote
                    }
                    final char c = line.charAt(i++);
                    if (c != '"')
                    {
                        field.append(c);
                    }
                    else if (i < line.length() && line.charAt(i) == '"')
                    {
                        field.append('"');
                        i++;
                    }
                    else
                    {
                        break;
                    }
                }
                if (i < line.length() && line.charAt(i) != ',')
                {
                    return null; // text after the closing quote
                }
            }
            else
            {
                final int comma = line.indexOf(',', i);
                final int end = comma < 0 ? line.length() : comma;
                field.append(line, i, end);
                i = end;
            }
            fields.add(field.toString());
            if (i >= line.length())
            {
                return fields;
            }
            i++; // the comma
        }
    }
}
