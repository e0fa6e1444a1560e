package dev.weir.examples.fraud;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the example's payments as the events CSV that {@code weir ingest --columns} reads: the header
 * {@code event_id,event_time,card,merchant,country,amount,fee,channel,status}, then one line per payment,
 * amounts and fees with two decimals, merchant names quoted as RFC 4180 where they hold a comma or a quote. The same seed
 * gives the same file, and the same payments as the Java example appends.
 * <p>
 * Stateless: one call per file.
 */
final class PaymentsCsv
{
    private PaymentsCsv()
    {
    }

    /**
     * @param file     the file to write (replaced if it exists).
     * @param payments how many payments.
     * @param cards    how many ordinary cards.
     * @param seed     the payments' seed.
     * @throws IOException if the file cannot be written.
     */
    static void write(final Path file, final int payments, final int cards, final long seed) throws IOException
    {
        final Payments stream = new Payments(seed, cards, FraudDetector.FRAUD_EVERY);
        try (BufferedWriter out = Files.newBufferedWriter(file))
        {
            out.write("event_id,event_time,card,merchant,country,amount,fee,channel,status\n");
            final StringBuilder line = new StringBuilder(128);
            for (int i = 0; i < payments; i++)
            {
                stream.next(i);
                line.setLength(0);
                line.append(i).append(',').append(stream.eventTime).append(',').append(Payments.card(stream.card)).append(',');
                quoted(line, Payments.merchant(stream.merchant)).append(',').append(Payments.COUNTRIES[stream.country]).append(',');
                cents(line, stream.amount).append(',');
                cents(line, stream.fee).append(',').append(Payments.CHANNELS[stream.channel]).append(',').append(Payments.STATUSES[stream.status])
                    .append('\n');
                out.append(line);
            }
        }
    }

    private static StringBuilder cents(final StringBuilder line, final long cents)
    {
        return line.append(cents / 100).append('.').append(cents % 100 < 10 ? "0" : "").append(cents % 100);
    }

    private static StringBuilder quoted(final StringBuilder line, final String field)
    {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0)
        {
            return line.append(field);
        }
        return line.append('"').append(field.replace("\"", "\"\"")).append('"');
    }
}
