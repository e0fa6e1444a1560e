package dev.weir.examples.fraud;

import java.nio.file.Path;
import java.util.Arrays;

import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.JournalSchema;

/**
 * The service's one appender of payments and card profiles: every rule's pipeline reads the journal it appends
 * to. A card's profile ({@link CardProfiles}) is upserted into the {@code cards} table before the card's first
 * payment, valid from 0 (the card was issued before the stream began); a payment that changes its card's profile
 * ({@link Payments#change}) has the change appended before it. Keeps each card's, merchant's, country's, channel's
 * and status's string id once it is defined, so that an append allocates nothing after a string's first use.
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
    /** The columns of a card profile ({@link CardProfiles#COLUMNS}). */
    private static final int PROFILE_CARD = 0;
    private static final int PROFILE_HOME = 1;
    private static final int PROFILE_LIMIT = 2;
    private static final int PROFILE_SEGMENT = 3;

    private final EventJournal journal;
    private final EventRow row;
    private final TableAppender cards;
    private final TableRow profile;
    private final int[] merchantIds = new int[Payments.MERCHANTS];
    private final int[] countryIds = new int[Payments.COUNTRIES.length];
    private final int[] channelIds = new int[Payments.CHANNELS.length];
    private final int[] statusIds = new int[Payments.STATUSES.length];
    private int[] cardIds = new int[1 << 16];

    private PaymentAppender(final EventJournal journal)
    {
        this.journal = journal;
        this.row = journal.row();
        this.cards = journal.table("cards");
        this.profile = cards.row();
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
     * Create the payments journal with its card profile table, or open it if it exists with the payments' columns
     * and that table.
     *
     * @param directory the journal's directory.
     * @return the appender; it holds the journal's single-appender lock until closed.
     */
    static PaymentAppender open(final Path directory)
    {
        JournalDirectory.openOrCreate(directory, JournalSchema.parse(Payments.COLUMNS));
        return new PaymentAppender(EventJournal.open(JournalDirectory.openOrCreateForTable(directory, CardProfiles.TABLE, null)));
    }

    /**
     * @param card a card number.
     * @return its id in the card column (the key id of the rules keyed by card), defined on first use, when the
     *         card's profile is upserted too.
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
            upsertProfile(0, card, CardProfiles.home(card), CardProfiles.limitCents(card));
        }
        return cardIds[card];
    }

    private void upsertProfile(final long validFrom, final int card, final int home, final long limitCents)
    {
        cards.upsert(profile.clear().validFrom(validFrom).setString(PROFILE_CARD, Payments.card(card)).setString(PROFILE_HOME, Payments.COUNTRIES[home])
            .setLong(PROFILE_LIMIT, limitCents).setString(PROFILE_SEGMENT, CardProfiles.SEGMENTS[CardProfiles.segment(card)]));
    }

    /** Append the change of the payment's card's profile ({@link Payments#change}). */
    private void changeProfile(final Payments payment)
    {
        final int card = payment.card;
        switch (payment.change)
        {
            case RAISED_LIMIT -> upsertProfile(payment.changeFrom, card, CardProfiles.home(card), CardProfiles.RAISED_LIMIT_CENTS);
            case MOVED_HOME -> upsertProfile(payment.changeFrom, card, payment.country, CardProfiles.limitCents(card));
            case DELETED -> cards.delete(profile.clear().validFrom(payment.changeFrom).setString(PROFILE_CARD, Payments.card(card)));
            default -> throw new IllegalStateException("no change to append: " + payment.change);
        }
    }

    /**
     * Append the stream's current payment, after its card's profile if the card is new, and after the change of
     * that profile the payment brings, if any.
     *
     * @param eventId  its id.
     * @param payment  the stream, at the payment.
     * @return its offset.
     */
    long append(final long eventId, final Payments payment)
    {
        final int card = cardId(payment.card);
        if (payment.change != Payments.ProfileChange.NONE)
        {
            changeProfile(payment);
        }
        final int merchant = payment.merchant;
        if (merchantIds[merchant] < 0)
        {
            merchantIds[merchant] = journal.stringId(MERCHANT, Payments.merchant(merchant));
        }
        row.eventId(eventId).eventTime(payment.eventTime).setString(CARD, card).setString(MERCHANT, merchantIds[merchant])
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
