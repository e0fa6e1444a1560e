package dev.weir.csv;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Seeded hostile lines of an events CSV, most of them valid: quotes, CRLF, UTF-8 keys and invalid UTF-8, empty and
 * missing fields, spaces, signs, Unicode digits, overlong numbers and strings, a line too long, ISO-8601 times of every shape near the one accepted. The default columns'
 * ({@link #defaultLine}) and {@value #COLUMNS}'s ({@link #columnsLine}).
 */
final class HostileLines
{
    /** The columns of {@link #columnsLine}. */
    static final String COLUMNS = "card:string,merchant:string,amount:decimal(2),fee:long,country:string";

    private HostileLines()
    {
    }

    private static final String[] KEYS = {"k1", "k2", "key-3", "K_4", "a-b_c", "x"};

    static byte[] defaultLine(final SplittableRandom random, final int i)
    {
        final String id = Long.toString(i);
        final String time = random.nextInt(10) == 0 ? isoTime(random, i) : Long.toString(1_000L * i);
        final String key = random.nextInt(50) == 0 ? "new" + random.nextInt(1_000) : KEYS[random.nextInt(KEYS.length)];
        final String value = Long.toString(random.nextLong(-1_000_000, 1_000_000));
        if (random.nextInt(100) >= 25)
        {
            return utf8(id + "," + time + "," + key + "," + value);
        }
        return switch (random.nextInt(27))
        {
            case 0 -> utf8(" " + id + " , " + time + " ,\t" + key + ", " + value + " ");
            case 1 -> utf8("+" + id + "," + time + "," + key + ",+" + value);
            case 2 -> utf8(id + "," + time + "," + key + "," + "1234567890123456789");
            case 3 -> utf8(id + "," + time + "," + key + "," + "-9223372036854775808");
            case 4 -> utf8(id + "," + time + "," + key + "," + "9223372036854775808");
            case 5 -> utf8(id + ",-" + time + "," + key + "," + value);
            case 6 -> utf8(id + ",4611686018427387905," + key + "," + value);
            case 7 -> utf8(id + ",999999999999999999," + key + "," + value);
            case 8 -> utf8(",,,");
            case 9 -> utf8("");
            case 10 -> utf8("   ");
            case 11 -> utf8(id + "," + time + "," + key);
            case 12 -> utf8(id + "," + time + "," + key + "," + value + ",9");
            case 13 -> utf8(id + "," + time + ",clé" + "," + value);
            case 14 -> new byte[] {'1', ',', '2', ',', 'k', (byte)0xC3, ',', '3'};
            case 15 -> utf8(id + "," + time + ",\"" + key + "\"," + value);
            case 16 -> utf8(id + "," + time + "," + "k".repeat(64) + "," + value);
            case 17 -> utf8(id + "," + time + "," + "k".repeat(65) + "," + value);
            case 18 -> utf8(id + "," + time + "," + key + "\r," + value);
            case 19 -> utf8(id + "," + time + ",," + value);
            case 20 -> utf8(id + "," + time + "," + key + ",");
            case 21 -> utf8("-" + "," + time + "," + key + "," + value);
            case 22 -> utf8("007," + time + "," + key + ",-0");
            case 23 -> utf8(id + "," + time + "," + key + "," + value + "x");
            case 24 -> random.nextInt(20) == 0 ? utf8(id + "," + time + "," + key + "," + "9".repeat(70_000)) : utf8(id + ",1," + key + ",1");
            case 25 -> utf8(id + "," + time + "," + key + ",١٢٣");
            default -> utf8(id + "," + time + "," + key + "," + value + "\u00A0");
        };
    }

    private static final String[] CARDS = {"c1", "c2", "card-3", "Müller", "日本"};
    private static final String[] MERCHANTS = {"m-1", "\"Café \"\"Le Bon\"\", Paris\"", "\"Shop, Inc.\"", "\"m-1\"", "\"\"\"\"", "Zürich"};

    static byte[] columnsLine(final SplittableRandom random, final int i)
    {
        final String id = Long.toString(i);
        final String time = random.nextInt(10) == 0 ? isoTime(random, i) : Long.toString(1_000L * i);
        final String card = random.nextInt(40) == 0 ? "new-" + random.nextInt(500) : CARDS[random.nextInt(CARDS.length)];
        final String merchant = MERCHANTS[random.nextInt(MERCHANTS.length)];
        final long cents = random.nextLong(-100_000, 100_000);
        final String amount = (cents < 0 ? "-" : "") + Math.abs(cents) / 100 + (random.nextBoolean() ? "." + String.format("%02d", Math.abs(cents) % 100) : "");
        final String fee = Long.toString(random.nextLong(-50, 50));
        final String country = random.nextBoolean() ? "FR" : "\"DE\"";
        final String good = id + "," + time + "," + card + "," + merchant + "," + amount + "," + fee + "," + country;
        if (random.nextInt(100) >= 30)
        {
            return utf8(good);
        }
        final String rest = "," + fee + "," + country;
        final String head = id + "," + time + "," + card + "," + merchant + ",";
        return switch (random.nextInt(30))
        {
            case 0 -> utf8(head + "1.5" + rest);
            case 1 -> utf8(head + "1.555" + rest);
            case 2 -> utf8(head + ".5" + rest);
            case 3 -> utf8(head + "5." + rest);
            case 4 -> utf8(head + "+1.00" + rest);
            case 5 -> utf8(head + "-0.01" + rest);
            case 6 -> utf8(head + "9999999999999999.99" + rest);
            case 7 -> utf8(head + "92233720368547758.07" + rest);
            case 8 -> utf8(head + "92233720368547758.08" + rest);
            case 9 -> utf8(head + "-92233720368547758.08" + rest);
            case 10 -> utf8(head + "\"12.50\"" + rest);
            case 11 -> utf8(id + "," + time + ",," + merchant + "," + amount + rest);
            case 12 -> utf8(id + "," + time + ",\"\"," + merchant + "," + amount + rest);
            case 13 -> utf8(id + "," + time + "," + "x".repeat(257) + "," + merchant + "," + amount + rest);
            case 14 -> utf8(id + "," + time + "," + card + ",\"a\rb\"," + amount + rest);
            case 15 -> utf8(id + "," + time + "," + card + ",\"Shop\"x," + amount + rest);
            case 16 -> utf8(id + "," + time + "," + card + ",\"Shop, Inc.," + amount + rest);
            case 17 -> utf8(id + "," + time + "," + card + ",Sh\"op," + amount + rest);
            case 18 -> utf8(good + ",extra");
            case 19 -> utf8(head + amount + "," + fee);
            case 20 -> utf8(head + amount + ",+" + fee + "," + country);
            case 21 -> utf8(head + amount + ",99999999999999999999," + country);
            case 22 -> utf8("\"" + id + "\"," + time + "," + card + "," + merchant + "," + amount + rest);
            case 23 -> utf8(id + ",-5," + card + "," + merchant + "," + amount + rest);
            case 24 -> utf8(id + "," + time + ", " + card + "," + merchant + "," + amount + rest);
            case 25 -> new byte[] {'1', ',', '2', ',', (byte)0xC3, (byte)0xBC, 'x', (byte)0xFF, ',', 'm', ',', '1', ',', '1', ',', 'F', 'R'};
            case 26 -> utf8(id + "," + time + "," + card + ",\"" + "x".repeat(300) + "\"," + amount + rest);
            case 27 -> utf8(id + "," + time + "," + card + ",\"M\u00fcller\"," + amount + rest);
            case 28 -> utf8(head + "-" + rest);
            default -> utf8("");
        };
    }

    private static final String[] OFFSETS = {"Z", "+00:00", "-00:00", "+01:00", "+05:45", "-03:30", "+14:00", "-12:00", "+18:00",
        "-18:00", "+18:01", "+24:00", "+1:00", "+0100", "z", ""};
    private static final String[] FRACTIONS = {"", ".2", ".25", ".250", ".2501", ".999999999", ".9999999999", ".", ",5"};
    private static final String[] DATES = {"2026-12-02", "2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "1970-01-01",
        "1969-12-31", "9999-12-31", "0000-01-01", "2026-13-01", "2026-00-10", "2026-04-31", "2026-4-01", "+2026-12-02", "-0001-01-01"};
    private static final String[] CLOCKS = {"09:30:00", "00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "12:00", "9:30:00"};

    /** An ISO-8601 time of the event, mostly of the accepted shape, sometimes not: boundaries of each part. */
    private static String isoTime(final SplittableRandom random, final int i)
    {
        if (random.nextInt(3) != 0)
        {
            return java.time.Instant.ofEpochMilli(1_000L * i + random.nextInt(1_000)).toString();
        }
        final String t = random.nextInt(40) == 0 ? "t" : random.nextInt(40) == 0 ? " " : "T";
        return DATES[random.nextInt(DATES.length)] + t + CLOCKS[random.nextInt(CLOCKS.length)] + FRACTIONS[random.nextInt(FRACTIONS.length)]
            + OFFSETS[random.nextInt(OFFSETS.length)];
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
