package dev.weir.engine.expr;

import java.util.Objects;

import dev.weir.journal.StringDictionaries;

/**
 * {@link StringTexts} over a journal's string dictionaries, for filters over the events' own columns (indices of the
 * journal's schema): ids, texts and counts are the dictionaries', which read definitions appended since their last
 * look when an id or text is unknown, so they know every id of the events read so far.
 * <p>
 * Not thread-safe: the dictionaries' owner thread (the filter's).
 */
public final class DictionaryTexts implements StringTexts
{
    private final StringDictionaries dictionaries;

    /**
     * @param dictionaries the journal's string dictionaries, owned by the filter's thread.
     */
    public DictionaryTexts(final StringDictionaries dictionaries)
    {
        this.dictionaries = Objects.requireNonNull(dictionaries, "dictionaries");
    }

    @Override
    public int idOf(final int column, final String text)
    {
        return dictionaries.dictionary(column).idOf(text);
    }

    @Override
    public CharSequence textOf(final int column, final int id)
    {
        return dictionaries.dictionary(column).name(id);
    }

    @Override
    public int definedCount(final int column)
    {
        return dictionaries.dictionary(column).size();
    }
}
