package dev.weir.csv;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;

/**
 * An independent model of the rules of an events CSV line, written from docs/formats.md's rules with Java's own
 * parsing (String.split, regular expressions, Long.parseLong, BigDecimal, java.time for ISO-8601 times), to check {@link CsvLineParser}
 * against: the same verdict, the same reason, the same values. Slow and allocating; test use only.
 */
final class CsvLineModel
{
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"]|\"\")*+)\"");
    private static final Pattern UNQUOTED = Pattern.compile("[^,]*");
    private static final Pattern ISO =
        Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private final JournalSchema schema;
    private final List<String> names = new ArrayList<>();
    private long eventId;
    private long eventTime;
    private Object[] values;

    CsvLineModel(final JournalSchema schema)
    {
        this.schema = schema;
        names.add("event_id");
        names.add("event_time");
        for (int c = 0; c < schema.size(); c++)
        {
            names.add(schema.column(c).name());
        }
    }

    /** @return null if the line is a valid event, else the reason. */
    String parse(final String line)
    {
        values = new Object[schema.size()];
        if (line.isBlank())
        {
            return "empty line";
        }
        final List<String> fields = new ArrayList<>();
        if (schema.isDefault())
        {
            for (final String field : line.split(",", -1))
            {
                fields.add(field.trim());
            }
            if (fields.size() != 4)
            {
                return "expected 4 fields (event_id,event_time,key,value), found " + fields.size();
            }
        }
        else
        {
            final String why = split(line, fields);
            if (why != null)
            {
                return why;
            }
            if (fields.size() != names.size())
            {
                return "expected " + names.size() + " fields, got " + fields.size();
            }
        }
        try
        {
            eventId = Long.parseLong(fields.get(0));
        }
        catch (final NumberFormatException ex)
        {
            return "event_id is not a 64-bit integer: '" + shown(fields.get(0)) + "'";
        }
        final Long time = time(fields.get(1));
        if (time == null)
        {
            return "event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): '" + shown(fields.get(1)) + "'";
        }
        eventTime = time;
        if (eventTime < 0)
        {
            return "event_time is negative: " + eventTime;
        }
        if (eventTime > EventJournal.MAX_EVENT_TIME)
        {
            return "event_time is later than " + EventJournal.MAX_EVENT_TIME + ": " + eventTime;
        }
        return schema.isDefault() ? defaultColumns(fields) : columns(fields);
    }

    /** @return epoch milliseconds, or an ISO-8601 instant of the one shape read by java.time, truncated to the ms; else null. */
    private static Long time(final String text)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            if (!ISO.matcher(text).matches())
            {
                return null;
            }
            try
            {
                return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant().toEpochMilli();
            }
            catch (final DateTimeParseException notADate)
            {
                return null;
            }
        }
    }

    private String defaultColumns(final List<String> fields)
    {
        final String key = fields.get(2);
        final String notKey = key.isEmpty() ? "empty key" : key.length() > 64 ? "key longer than 64 characters"
            : KEY.matcher(key).matches() ? null : "key has characters outside [A-Za-z0-9_-]";
        if (notKey != null)
        {
            return notKey + ": '" + shown(key) + "'";
        }
        try
        {
            values[1] = Long.parseLong(fields.get(3));
        }
        catch (final NumberFormatException ex)
        {
            return "value is not a 64-bit integer: '" + shown(fields.get(3)) + "'";
        }
        values[0] = key;
        return null;
    }

    private String columns(final List<String> fields)
    {
        for (int c = 0; c < schema.size(); c++)
        {
            final String text = fields.get(c + 2);
            final String name = schema.column(c).name();
            final int scale = schema.column(c).scale();
            if (schema.column(c).type() == ColumnType.STRING)
            {
                if (text.isEmpty())
                {
                    return "empty string in column " + name;
                }
                if (text.getBytes(StandardCharsets.UTF_8).length > JournalSchema.MAX_STRING_BYTES)
                {
                    return "string over " + JournalSchema.MAX_STRING_BYTES + " bytes in column " + name;
                }
                if (text.contains("\r") || text.contains("\n"))
                {
                    return "line break in column " + name;
                }
                values[c] = text;
            }
            else if (schema.column(c).type() == ColumnType.LONG)
            {
                try
                {
                    values[c] = Long.parseLong(text);
                }
                catch (final NumberFormatException ex)
                {
                    return "bad long in column " + name + ": " + shown(text);
                }
            }
            else
            {
                final String form = scale == 0 ? "-?[0-9]+" : "-?[0-9]+(\\.[0-9]{1," + scale + "})?";
                try
                {
                    if (!text.matches(form))
                    {
                        throw new ArithmeticException("not a decimal");
                    }
                    values[c] = new BigDecimal(text).movePointRight(scale).longValueExact();
                }
                catch (final ArithmeticException ex)
                {
                    return "bad decimal in column " + name + ": " + shown(text) + " (scale " + scale + ")";
                }
            }
        }
        return null;
    }

    /** RFC 4180 on one line, by regular expressions. */
    private String split(final String line, final List<String> fields)
    {
        int pos = 0;
        while (true)
        {
            final int field = fields.size();
            if (pos < line.length() && line.charAt(pos) == '"')
            {
                final Matcher quoted = QUOTED.matcher(line).region(pos, line.length());
                if (!quoted.lookingAt())
                {
                    return "unterminated quote in field " + named(field);
                }
                fields.add(quoted.group(1).replace("\"\"", "\""));
                pos = quoted.end();
                if (pos < line.length() && line.charAt(pos) != ',')
                {
                    return "text after the closing quote of field " + named(field);
                }
            }
            else
            {
                final Matcher plain = UNQUOTED.matcher(line).region(pos, line.length());
                plain.lookingAt();
                if (plain.group().indexOf('"') >= 0)
                {
                    return "quote in unquoted field " + named(field) + " (quote the field and double its quotes)";
                }
                fields.add(plain.group());
                pos = plain.end();
            }
            if (pos >= line.length())
            {
                return null;
            }
            pos++;
        }
    }

    private String named(final int field)
    {
        return field < names.size() ? (field + 1) + " (" + names.get(field) + ")" : Integer.toString(field + 1);
    }

    private static String shown(final String field)
    {
        return field.length() <= 80 ? field : field.substring(0, 80) + "...";
    }

    long eventId()
    {
        return eventId;
    }

    long eventTime()
    {
        return eventTime;
    }

    String string(final int column)
    {
        return (String)values[column];
    }

    long longColumn(final int column)
    {
        return (Long)values[column];
    }
}
