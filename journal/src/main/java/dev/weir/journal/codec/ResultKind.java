package dev.weir.journal.codec;

/**
 * What a window result row is: the window's {@link #FINAL} firing (and re-firings), an {@link #UPDATE} of
 * its current aggregate after an event was added to it (with {@code --emit updates}), or its one
 * {@link #EARLY} row, at the first event that made the early condition true (with {@code --early-when}).
 * Each kind is stored as its own document type ({@link #documentType()}) with the same layout
 * ({@link ResultEncoder}), so a journal without updates or early rows holds exactly the bytes it held
 * before these kinds existed. Immutable; thread-safe.
 */
public enum ResultKind
{
    /** A firing: the window's end passed the watermark (version 0), or it changed after that (1, 2, ...). */
    FINAL(DocumentType.RESULT, "final"),
    /** The window's aggregate after an event was added to it, before its end passed the watermark. */
    UPDATE(DocumentType.RESULT_UPDATE, "update"),
    /** The window's aggregate at the first event that made the early condition true; once per window. */
    EARLY(DocumentType.RESULT_EARLY, "early");

    private static final ResultKind[] KINDS = values();

    private final byte documentType;
    private final String label;

    ResultKind(final byte documentType, final String label)
    {
        this.documentType = documentType;
        this.label = label;
    }

    /** @return the type code of the documents that store results of this kind. */
    public byte documentType()
    {
        return documentType;
    }

    /** @return its name in files: {@code final}, {@code update} or {@code early}. */
    public String label()
    {
        return label;
    }

    /**
     * @param type a document type code.
     * @return the kind of result it stores, or null if it is not a result document.
     */
    public static ResultKind ofDocumentType(final int type)
    {
        for (final ResultKind kind : KINDS)
        {
            if (kind.documentType == type)
            {
                return kind;
            }
        }
        return null;
    }

    /**
     * @param label {@code final}, {@code update} or {@code early}.
     * @return that kind.
     * @throws IllegalArgumentException for any other label.
     */
    public static ResultKind ofLabel(final String label)
    {
        for (final ResultKind kind : KINDS)
        {
            if (kind.label.equals(label))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("a result kind is final, update or early: " + label);
    }
}
