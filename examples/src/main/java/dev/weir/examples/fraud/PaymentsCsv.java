package dev.weir.examples.fraud;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * Writes the example's payments as the events CSV that {@code weir ingest --columns} reads: the header
 * {@code event_id,event_time,card,merchant,country,amount,fee,channel,status}, then one line per payment,
 * amounts and fees with two decimals, merchant names quoted as RFC 4180 where they hold a comma or a quote; and the
 * card profiles as the table CSV that {@code weir ingest --table cards} reads: the header
 * {@code event_time,card,home,limit,segment,op}, then each card's profile as issued (valid from 0) in the order the
 * cards first pay, and the changes the stream brings ({@code op} {@code delete} for the deleted card). Ingested
 * before the payments, the profiles join each payment as the Java example's do: every row is valid from a time no
 * payment of its card before it has. The same seed gives the same files, and the same payments as the Java example
 * appends.
 * <p>
 * Stateless: one call per file.
 */
final class PaymentsCsv
{
    private PaymentsCsv()
    {
    }

    /**
     * @param file     the payments' file to write (replaced if it exists).
     * @param profiles the card profiles' file to write (replaced if it exists).
     * @param payments how many payments.
     * @param cards    how many ordinary cards.
     * @param seed     the payments' seed.
     * @return the card profile rows written.
     * @throws IOException if a file cannot be written.
     */
    static int write(final Path file, final Path profiles, final int payments, final int cards, final long seed) throws IOException
    {
        final Payments stream = new Payments(seed, cards, FraudDetector.FRAUD_EVERY);
        final BitSet issued = new BitSet();
        int rows = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file);
             BufferedWriter table = Files.newBufferedWriter(profiles))
        {
            out.write("event_id,event_time,card,merchant,country,amount,fee,channel,status\n");
            table.write("event_time,card,home,limit,segment,op\n");
            final StringBuilder line = new StringBuilder(128);
            for (int i = 0; i < payments; i++)
            {
                stream.next(i);
                if (!issued.get(stream.card))
                {
                    issued.set(stream.card);
                    rows += profile(table, 0, stream.card, CardProfiles.home(stream.card), CardProfiles.limitCents(stream.card));
                }
                rows += change(table, stream);
                line.setLength(0);
                line.append(i).append(',').append(stream.eventTime).append(',').append(Payments.card(stream.card)).append(',');
                quoted(line, Payments.merchant(stream.merchant)).append(',').append(Payments.COUNTRIES[stream.country]).append(',');
                cents(line, stream.amount).append(',');
                cents(line, stream.fee).append(',').append(Payments.CHANNELS[stream.channel]).append(',').append(Payments.STATUSES[stream.status])
                    .append('\n');
                out.append(line);
            }
        }
        return rows;
    }

    /** Write the change of the payment's card's profile ({@link Payments#change}), if any; @return the rows written. */
    private static int change(final BufferedWriter table, final Payments payment) throws IOException
    {
        final int card = payment.card;
        return switch (payment.change)
        {
            case NONE -> 0;
            case RAISED_LIMIT -> profile(table, payment.changeFrom, card, CardProfiles.home(card), CardProfiles.RAISED_LIMIT_CENTS);
            case MOVED_HOME -> profile(table, payment.changeFrom, card, payment.country, CardProfiles.limitCents(card));
            case DELETED ->
            {
                table.append(Long.toString(payment.changeFrom)).append(',').append(Payments.card(card)).append(",,,,delete\n");
                yield 1;
            }
        };
    }

    private static int profile(final BufferedWriter table, final long from, final int card, final int home, final long limitCents) throws IOException
    {
        final StringBuilder line = new StringBuilder(64).append(from).append(',').append(Payments.card(card)).append(',')
            .append(Payments.COUNTRIES[home]).append(',');
        cents(line, limitCents).append(',').append(CardProfiles.SEGMENTS[CardProfiles.segment(card)]).append(",\n");
        table.append(line);
        return 1;
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
