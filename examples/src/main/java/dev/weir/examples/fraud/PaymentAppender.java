package dev.weir.examples.fraud;

import java.nio.file.Path;
import java.util.Arrays;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;

/**
 * The service's one appender of payments: every rule's pipeline reads the journal it appends to. Keeps
 * each card's, merchant's, country's, channel's and status's string id once it is defined, so that an append
 * allocates nothing after a string's first use.
 * <p>
 * Not thread-safe: the producer thread (the journal has one appending thread).
 */
final class PaymentAppender implements AutoCloseable
{
    private static final int CARD = 0;
    private static final int MERCHANT = 1;
    private static final int COUNTRY = 2;
    private static final int AMOUNT = 3;
    private static final int FEE = 4;
    private static final int CHANNEL = 5;
    private static final int STATUS = 6;

    private final EventJournal journal;
    private final EventRow row;
    private final int[] merchantIds = new int[Payments.MERCHANTS];
    private final int[] countryIds = new int[Payments.COUNTRIES.length];
    private final int[] channelIds = new int[Payments.CHANNELS.length];
    private final int[] statusIds = new int[Payments.STATUSES.length];
    private int[] cardIds = new int[1 << 16];

    private PaymentAppender(final EventJournal journal)
    {
        this.journal = journal;
        this.row = journal.row();
        Arrays.fill(cardIds, -1);
        Arrays.fill(merchantIds, -1);
        for (int c = 0; c < countryIds.length; c++)
        {
            countryIds[c] = journal.stringId(COUNTRY, Payments.COUNTRIES[c]);
        }
        for (int c = 0; c < channelIds.length; c++)
        {
            channelIds[c] = journal.stringId(CHANNEL, Payments.CHANNELS[c]);
        }
        for (int s = 0; s < statusIds.length; s++)
        {
            statusIds[s] = journal.stringId(STATUS, Payments.STATUSES[s]);
        }
    }

    /**
     * Create the payments journal, or open it if it exists with the payments' columns.
     *
     * @param directory the journal's directory.
     * @return the appender; it holds the journal's single-appender lock until closed.
     */
    static PaymentAppender open(final Path directory)
    {
        return new PaymentAppender(EventJournal.open(JournalDirectory.openOrCreate(directory, JournalSchema.parse(Payments.COLUMNS))));
    }

    /**
     * @param card a card number.
     * @return its id in the card column (the key id of the rules keyed by card), defined on first use.
     */
    int cardId(final int card)
    {
        if (card >= cardIds.length)
        {
            final int old = cardIds.length;
            cardIds = Arrays.copyOf(cardIds, Math.max(card + 1, old * 2));
            Arrays.fill(cardIds, old, cardIds.length, -1);
        }
        if (cardIds[card] < 0)
        {
            cardIds[card] = journal.stringId(CARD, Payments.card(card));
        }
        return cardIds[card];
    }

    /**
     * Append the stream's current payment.
     *
     * @param eventId  its id.
     * @param payment  the stream, at the payment.
     * @return its offset.
     */
    long append(final long eventId, final Payments payment)
    {
        final int merchant = payment.merchant;
        if (merchantIds[merchant] < 0)
        {
            merchantIds[merchant] = journal.stringId(MERCHANT, Payments.merchant(merchant));
        }
        row.eventId(eventId).eventTime(payment.eventTime).setString(CARD, cardId(payment.card)).setString(MERCHANT, merchantIds[merchant])
            .setString(COUNTRY, countryIds[payment.country]).setLong(AMOUNT, payment.amount).setLong(FEE, payment.fee).setString(CHANNEL, channelIds[payment.channel])
            .setString(STATUS, statusIds[payment.status]);
        return journal.append(row);
    }

    @Override
    public void close()
    {
        journal.close();
    }
}
