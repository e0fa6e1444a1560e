package dev.weir.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.SplittableRandom;

import dev.weir.csv.CsvLineParser;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * The Kafka Streams job must drop exactly the lines Weir rejects, or a bad line (such as the demo's line with a
 * valid time a day ahead and a bad key) would move a Streams task's stream time and the engines' rows would differ.
 */
class PaymentLineTest
{
    private final CsvLineParser weir = new CsvLineParser(JournalSchema.DEFAULT);

    @Test
    void acceptsAndRejectsWhatWeirDoes()
    {
        final List<String> lines = List.of(
            "1000001,1796029200001,card-0387,5453", " 7 , 12 , k_1 , -3 ", "1,0,a,0",
            "oops,this is not a payment", "123,-5,card-0001,100", "124,1796029260000,card #7,100",
            "", " ", "1,2,3", "1,2,3,4,5", "x,2,k,4", "1,y,k,4", "1,2,k,z", "1,2,,4", "1,2, ,4",
            "1,2," + "k".repeat(64) + ",4", "1,2," + "k".repeat(65) + ",4", "1,4611686018427387904,k,1",
            "1,4611686018427387905,k,1", "1,99999999999999999999,k,1", "+1,+2,k,+3", "1,2,k\u00e9,3", "1,2,k.a,3");
        for (final String line : lines)
        {
            check(line);
        }
    }

    @Test
    void agreesWithWeirOnRandomLines()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final String alphabet = "0123456789,-_ aZ#.+";
        for (int i = 0; i < 200_000; i++)
        {
            final StringBuilder line = new StringBuilder();
            final int length = random.nextInt(12);
            for (int c = 0; c < length; c++)
            {
                line.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            check(line.toString());
        }
    }

    private void check(final String line)
    {
        final String reason = weir.parse(line);
        final long time = PaymentLine.eventTime(line);
        assertEquals(reason == null, time != PaymentLine.INVALID, () -> "'" + line + "': Weir says " + reason);
        if (reason == null)
        {
            assertEquals(weir.eventTime(), time, line);
            assertEquals(weir.string(0), PaymentLine.key(line), line);
            assertEquals(weir.longColumn(1), PaymentLine.value(line), line);
        }
    }
}
