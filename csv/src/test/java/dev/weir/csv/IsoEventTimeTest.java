package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * An event time is epoch milliseconds or an ISO-8601 instant of one shape ({@link IsoInstant}), read alike from a line's
 * bytes (allocation-free) and from its text, with one reason naming both forms: offsets up to 18:00, leap days, a
 * fraction truncated to the millisecond, signed or five-digit years refused, an instant before 1970 negative.
 */
class IsoEventTimeTest
{
    @Test
    void eventTimeIsEpochMillisecondsOrAnIsoInstantReadTheSameFromBytesAndAsText()
    {
        for (final String iso : List.of("2026-12-02T09:30:00Z", "2026-12-02T10:30:00.250+01:00", "2024-02-29T00:00:00Z", "2000-02-29T12:00:00-00:00",
            "2026-12-02T09:30:00+14:00", "2026-12-02T09:30:00-14:00", "2026-12-02T09:30:00+18:00", "2026-12-02T09:30:00-18:00",
            "2026-12-02T09:30:00.1+05:45", "1970-01-01T01:00:00+01:00", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999-18:00"))
        {
            final long millis = OffsetDateTime.parse(iso).toInstant().toEpochMilli();
            assertTime(iso, millis, null);
        }
        assertTime("2026-12-02T09:30:00.123456789Z", Instant.parse("2026-12-02T09:30:00.123Z").toEpochMilli(), "truncated to the millisecond");
        assertTime("1700000000000", 1_700_000_000_000L, null);
        final String neither = "event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): '";
        for (final String bad : List.of("2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-12-02T09:30:00+18:01",
            "2026-12-02T24:00:00Z", "2026-12-02T09:60:00Z", "2026-12-02T09:30:60Z", "2026-12-02T09:30Z", "2026-12-02T09:30:00",
            "2026-12-02t09:30:00Z", "2026-12-02T09:30:00z", "2026-12-02 09:30:00Z", "2026-12-02T09:30:00.Z", "2026-12-02T09:30:00.1234567891Z",
            "2026-12-02T09:30:00+0100", "2026-12-02T09:30:00+01", "-0001-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "2026-12-02T09:30:00Z "))
        {
            assertBothWays("1," + bad + ",7", neither + bad + "'", bad);
        }
        assertBothWays("1,1969-12-31T23:59:59.999Z,7", "event_time is negative: -1", "before 1970");
        assertBothWays("1,0000-01-01T00:00:00+01:00,7", "event_time is negative: -62167222800000", "year 0");
        final CsvLineParser defaults = new CsvLineParser(JournalSchema.DEFAULT);
        assertNull(defaults.parse(" 1 , 2026-12-02T09:30:00Z ,k,7"), "trimmed in the default columns");
        assertEquals(Instant.parse("2026-12-02T09:30:00Z").toEpochMilli(), defaults.eventTime());
        final CsvLineParser quoted = new CsvLineParser(JournalSchema.parse("n:long"));
        assertNull(quoted.parse("1,\"2026-12-02T09:30:00Z\",7"), "quoted in other columns");
        assertEquals(Instant.parse("2026-12-02T09:30:00Z").toEpochMilli(), quoted.eventTime());
    }

    /** A line of column {@code n:long} with this time is read from its bytes, allocation-free, and as text alike. */
    private static void assertTime(final String time, final long millis, final String why)
    {
        final CsvLineParser bytes = new CsvLineParser(JournalSchema.parse("n:long"));
        final byte[] line = ("1," + time + ",7").getBytes(StandardCharsets.UTF_8);
        assertNull(bytes.parse(line, 0, line.length), time);
        assertNull(bytes.text(), () -> "read from its bytes: " + time);
        final CsvLineParser text = new CsvLineParser(JournalSchema.parse("n:long"));
        assertNull(text.parse("1," + time + ",7"), time);
        assertEquals(millis, text.eventTime(), () -> time + (why == null ? "" : ": " + why));
        assertEquals(7, text.longColumn(0));
    }

    private static void assertBothWays(final String line, final String reason, final String what)
    {
        final byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        assertEquals(reason, new CsvLineParser(JournalSchema.parse("n:long")).parse(utf8, 0, utf8.length), () -> "from bytes: " + what);
        assertEquals(reason, new CsvLineParser(JournalSchema.parse("n:long")).parse(line), () -> "as text: " + what);
    }
}
