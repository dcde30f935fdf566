// The words the secret gates read in the languages team notes are commonly written in (English,
// German, French, Spanish, Portuguese, Italian, Dutch, Polish, Russian, Swedish, Japanese,
// Chinese and a few more): a lock that opens with a code, the verbs that say what opens it, the
// words for a login, the prepositions and verbs between a credential word and its value, and the
// function words that make a run of words a sentence rather than a passphrase. Each table lists a
// language's words together, so a language is added in one place. Regex sources are lowercase
// (the rules match case-insensitively) and hold no nested repetition.

const alt = (words: string[]) => words.join('|');

/**
 * Things that open with a code and name nothing else: a safe, a padlock, a key safe. Stated with
 * a digit code ("the padlock on the cage is 0619", "der Tresor geht mit 31-08-77 auf").
 */
export const LOCK_NOUNS = alt([
  'padlock|lockbox|lock box|key ?safe|key ?box|combination lock|bike lock|cable lock|gun safe|wall safe|floor safe|safe',
  'tresor|vorh\u00e4ngeschloss|zahlenschloss|fahrradschloss|schl\u00fcsselsafe|schl\u00fcsselkasten', // de
  'cadenas|coffre-fort|coffre fort|coffre|bo\u00eete \u00e0 cl\u00e9s', // fr
  'candado|caja fuerte|caja de seguridad', // es
  'cadeado|cofre', // pt
  'lucchetto|cassaforte|cassetta di sicurezza', // it
  'hangslot|cijferslot|kluis|sleutelkluis', // nl
  'k\u0142\u00f3dka|k\u0142\u00f3dki|sejf|sejfu', // pl
  '\u0441\u0435\u0439\u0444|\u0441\u0435\u0439\u0444\u0430|\u0437\u0430\u043c\u043e\u043a|\u0437\u0430\u043c\u043a\u0430', // ru: сейф, замок
  'kassask\u00e5p|kassask\u00e5pet|h\u00e4ngl\u00e5s|h\u00e4ngl\u00e5set|kodl\u00e5s|kodl\u00e5set', // sv
]);
/** Things a code opens that also name other things (a door, a gate, an alarm): only with a verb of opening, or a keypad's # or *. */
export const ENTRY_NOUNS = alt([
  'door|front door|back door|side door|gate|garage|garage door|alarm|alarm panel|keypad|entry|building|intercom|shed|locker|phone|iphone|ipad|tablet|laptop|macbook',
  't\u00fcr|haust\u00fcr|garagentor|alarmanlage', // de
  'porte|portail|alarme|interphone', // fr
  'puerta|port\u00f3n|alarma', // es
  'porta|port\u00e3o|garagem', // pt
  'cancello|allarme|citofono', // it
  'deur|poort|hek', // nl
  'drzwi|brama|alarm', // pl
  '\u0434\u0432\u0435\u0440\u044c|\u0434\u0432\u0435\u0440\u0438|\u0434\u043e\u043c\u043e\u0444\u043e\u043d|\u0432\u043e\u0440\u043e\u0442\u0430', // ru: дверь, двери, домофон, ворота
  'd\u00f6rr|d\u00f6rren|porten|grind|grinden|larm|larmet', // sv
]);
/** Verbs that say a code opens something: "opens with", "geht mit", "s'ouvre avec", "se abre con". */
export const OPENING_VERBS = alt([
  '(?:is |can be )?(?:opened|unlocked|disarmed|armed) (?:with|using|by)|(?:opens|unlocks|disarms|arms|open|unlock|disarm) (?:it )?(?:with|using)',
  'geht mit|(?:\u00f6ffnet|entriegelt)(?: sich)? mit|l\u00e4sst sich mit|wird mit', // de
  "s'ouvre avec|s\u2019ouvre avec|ouvre avec|se d\u00e9verrouille avec|se d\u00e9sactive avec", // fr
  '(?:se )?abre con|se desactiva con|(?:se )?abre com|desbloqueia com', // es, pt
  '(?:si )?apre con|si sblocca con|si disattiva con', // it
  '(?:gaat )?open(?:t)? met', // nl
  'otwiera(?: si\u0119)?(?: kodem)?', // pl
  '\u043e\u0442\u043a\u0440\u044b\u0432\u0430\u0435\u0442\u0441\u044f(?: \u043a\u043e\u0434\u043e\u043c)?', // ru: открывается кодом
  '(?:\u00f6ppnas|g\u00e5r upp|l\u00e5ses upp) med', // sv
]);
/** The verbs of opening, and those a lock or a code also takes its digits with ("the keypad takes 3389"). */
export const LOCK_VERBS = `${OPENING_VERBS}|takes|uses|nimmt|utilise|usa|gebruikt|anv\u00e4nder`;

/** Words for a credential code that need no "code" after them, besides those of credentialWords.ts. */
export const CODE_COMPOUNDS = alt([
  '(?:door|gate|alarm|garage|entry|keypad|lock|safe|locker)code',
  '(?:t\u00fcr|tor|alarm|zugangs|sicherheits|geheim|tresor|schloss)[ -]?code|zahlenkombination|geheimzahl', // de
  '(?:deur|alarm|toegangs|pin|kluis)code', // nl
  '(?:port|d\u00f6rr|larm|grind|pin|kassask\u00e5ps|l\u00e5s)kod(?:en)?', // sv
  'kod pin|kod dost\u0119pu|\u043f\u0438\u043d-?\u043a\u043e\u0434|\u043a\u043e\u0434 \u0434\u043e\u0441\u0442\u0443\u043f\u0430', // pl, ru: пин-код, код доступа
  'combinazione|combina\u00e7\u00e3o|combinatie|szyfr', // it, pt, nl, pl
  'c\u00f3digos? de (?:recupera\u00e7\u00e3o|recuperaci\u00f3n|respaldo|backup)|codes? de (?:r\u00e9cup\u00e9ration|secours)|wiederherstellungscodes?|herstelcodes?|kody zapasowe|codici di (?:recupero|backup)', // recovery codes
]);
/** The same in scripts without spaces, where no letter boundary marks the word: 暗証番号, ピンコード, 门禁码, 密码锁. */
export const CJK_CODE_WORDS = '\u05e7\u05d5\u05d3 (?:\u05db\u05e0\u05d9\u05e1\u05d4|\u05d0\u05d6\u05e2\u05e7\u05d4|\u05d3\u05dc\u05ea)|\ub3c4\uc5b4\ub77d(?: \ubc88\ud638)?|\ucd9c\uc785 \ubc88\ud638|\u6697\u8a3c\u756a\u53f7|\u30d4\u30f3\u30b3\u30fc\u30c9|\u95e8\u7981\u7801|\u5f00\u9501\u7801|\u9a8c\u8bc1\u7801(?=[:\uff1a])';
/** "code" in other languages: a credential only when what it opens is named (OPENS), never an error or exit code. */
export const BARE_CODE_WORDS = alt(['codes?', 'c\u00f3digo|codigo|codice|kod|kodu|koden|kode|koodi|\u043a\u043e\u0434|\u30b3\u30fc\u30c9']);
/** What a bare "code" opens, in the phrase after it: "the code to open the bike locker", "Kod do drzwi", "Код от домофона". */
export const OPENED_THINGS = alt([
  'open|opens|unlock|disarm|enter|door|gate|garage|alarm|safe|lock|locker|building|office|house|flat|apartment|shed|entrance|lobby|elevator|padlock|keypad|wifi|wi-fi|bike|intercom',
  'porte|portail|immeuble|cadenas|coffre|alarme|interphone', // fr
  'puerta|port\u00f3n|garaje|alarma|candado|caja fuerte|portal', // es
  'porta|port\u00e3o|cadeado|cofre|cancello|cassaforte|lucchetto|allarme|citofono', // pt, it
  '\\p{L}*t\u00fcr|tor|haus|tresor|\\p{L}*schloss|alarmanlage', // de
  '\\p{L}*deur|poort|kluis|hangslot', // nl
  'drzwi|sejf\\p{L}*|k\u0142\u00f3dk\\p{L}*|bram\\p{L}*|domofon\\p{L}*|alarm\\p{L}{0,2}', // pl
  '\u0434\u0432\u0435\u0440\\p{L}*|\u0441\u0435\u0439\u0444\\p{L}*|\u0434\u043e\u043c\u043e\u0444\u043e\u043d\\p{L}*|\u0437\u0430\u043c\u043a\\p{L}*|\u0432\u043e\u0440\u043e\u0442\\p{L}*', // ru
  'd\u00f6rr\\p{L}*|port\\p{L}*|kontor\\p{L}*|kassask\u00e5p\\p{L}*', // sv
]);
/** What makes a code no credential: an error, exit or status code. */
export const NOT_A_LOCK_CODE =
  /\b(?:error|exit|status|return|response|http|fehler|erreur|retour|errore|uscita|stato|b\u0142\u0119du|fout|felkod)\b|\u043e\u0448\u0438\u0431\u043a|\u30a8\u30e9\u30fc|\u9519\u8bef|\u932f\u8aa4/iu;

/** The words of a login, where a `user / password` pair is read ("ログイン: admin / X"), for scripts and languages `\b` does not serve. */
export const LOGIN_WORDS_INTL = new RegExp(
  `(?<!\\p{L})(?:${alt([
    'benutzer(?:name)?|zugangsdaten|anmeldedaten|anmeldung|kennwort|passwort|konto', // de
    'identifiants?|utilisateur|compte|mot de passe|connexion', // fr
    'usuario|credenciales|cuenta|contrase\u00f1a|acceso', // es
    'usu\u00e1rio|utilizador|conta|senha|credenciais', // pt
    'utente|credenziali|accesso|account', // it
    'gebruiker(?:snaam)?|inloggegevens|wachtwoord', // nl
    'u\u017cytkownik\\p{L}*|konto|konta|kont|has\u0142o|logowanie|dane logowania', // pl
    '\u043b\u043e\u0433\u0438\u043d|\u043f\u0430\u0440\u043e\u043b\\p{L}*|\u0443\u0447[\u0435\u0451]\u0442\\p{L}*|\u0437\u0430\u043f\u0438\u0441\\p{L}*|\u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\\p{L}*|\u0432\u0445\u043e\u0434', // ru
    'anv\u00e4ndare|anv\u00e4ndarnamn|inloggning|l\u00f6senord\\p{L}*|konto', // sv
    'inloggen|aanmelden|einloggen|anmelden|zugang|se connecter|iniciar sesi\u00f3n|entra con|accede con|accedi|zaloguj\\p{L}*|logga in|bel\u00e9p\u00e9s|mdp', // logging in
    'giri\u015f|kullan\u0131c\u0131\\p{L}*|parola\\p{L}*|\u015fifre\\p{L}*', // tr
    'heslo|p\u0159ihl\u00e1\\p{L}*|u\u017eivatel\\p{L}*|jelsz\u00f3|bejelentkez\\p{L}*|felhaszn\u00e1l\u00f3\\p{L}*', // cs, hu
    'utilizator|salasana|k\u00e4ytt\u00e4j\u00e4\\p{L}*|kirjaudu|adgangskode|passord|brukernavn|brugernavn', // ro, fi, da, no
    'm\u1eadt kh\u1ea9u|t\u00e0i kho\u1ea3n|\u0111\u0103ng nh\u1eadp|kata sandi|pengguna', // vi, id
    '\u03ba\u03c9\u03b4\u03b9\u03ba\\p{L}*|\u03c7\u03c1\u03ae\u03c3\u03c4\u03b7\\p{L}*|\u03c3\u03cd\u03bd\u03b4\u03b5\u03c3\\p{L}*', // el
  ])})(?!\\p{L})|\u30ed\u30b0\u30a4\u30f3|\u30a2\u30ab\u30a6\u30f3\u30c8|\u30d1\u30b9\u30ef\u30fc\u30c9|\u30e6\u30fc\u30b6\u30fc|\u767b\u5f55|\u767b\u5165|\u8d26\u53f7|\u5e10\u53f7|\u8cec\u865f|\u8d26\u6237|\u7528\u6237\u540d|\u5bc6\u7801|\u5bc6\u78bc|\ub85c\uadf8\uc778|\uacc4\uc815|\ube44\ubc00\ubc88\ud638`,
  'iu',
);

/** Prepositions that open a qualifier between a credential word and its value ("PIN della carta:", "Passwort vom Admin:"). */
export const PREPOSITIONS = alt([
  'for|of|on|at|to|in|from|by|inside|outside|next to|close to|in front of|behind|beside|near|under|above|below',
  'vom|von|f\u00fcr|f\u00fcrs|fur|zum|zur|beim|bei|im|am|auf|des|der|den|dem|ins', // de
  'du|de|des|pour|sur|dans|au|aux', // fr
  'del|para|en|al|por', // es
  'do|da|dos|das|no|na|nos|nas|pelo|pela', // pt
  'di|della|dello|delle|degli|dei|sul|sulla|sullo|al|alla|allo|nel|nella|nello|per|su|con', // it
  'voor|van|op|bij|naar', // nl
  'dla|od|na|w|we|przy|u', // pl
  '\u043e\u0442|\u0434\u043b\u044f|\u043a|\u043d\u0430|\u0432|\u043e\u0442\u043e', // ru: от для к на в
  'f\u00f6r|p\u00e5|till|av|hos|i', // sv
  'til|af|ved|med|paa', // da, no
]);
/** Prepositions written against the next word: "password dell'utente", "code d'accès". */
export const ELIDED_PREPOSITIONS = "(?:dell|all|sull|nell|dall|d|l)['\u2019]";

/**
 * Function words (articles, prepositions, conjunctions, copulas): a run of words holding one is a
 * sentence ("la password è nel gestore"), not a passphrase ("otter quilt maple").
 */
export const FUNCTION_WORDS = new Set(
  [
    'a an the of to in on at by for from with and or but is are was were be it its this that as not no your our my their you we they see ask use via per than then if so when until into',
    'der die das den dem des ein eine einer im ins mit f\u00fcr auf ist sind und oder nicht vom von zum zur bei', // de
    'le la les un une du des dans avec pour sur est sont et ou pas au aux ce cette', // fr
    'el los las una del en con por para es son y pero al se est\u00e1 esta', // es
    'os um uma do dos das em com por \u00e9 s\u00e3o e ou ao na nas no nos pela pelo est\u00e1 fica', // pt
    'il lo gli uno di della dello delle dei degli nel nella nello con su sul sulla sullo al alla allo dal dalla \u00e8 sono e o non', // it
    'het een van voor op zijn en niet bij', // nl
    'w we z ze na do dla od jest s\u0105 i lub nie to', // pl
    '\u0432 \u043d\u0430 \u0441 \u0434\u043b\u044f \u043e\u0442 \u0438 \u0438\u043b\u0438 \u044d\u0442\u043e \u043d\u0435 \u043b\u0435\u0436\u0438\u0442', // ru
    'och eller \u00e4r p\u00e5 f\u00f6r till av med finns inte', // sv
  ]
    .join(' ')
    .split(' '),
);

/** Copulas that state a value after a qualifier in other languages ("Hasło do serwera to X"): not after the credential word itself, where "to" opens a phrase. */
export const QUALIFIED_VERBS = 'to|jest|\u044d\u0442\u043e|\u2014|\u2013';

/** Credential words of other languages, which take a genitive qualifier ("Hasło administratora:") and a copula after it. */
export const FOREIGN_WORD =
  /[^\x00-\x7f]|^(?:passwort|kennwort|wachtwoord|contrasena|senha|palavra-passe|losenord|salasana|haslo|heslo|jelszo|sifre|passord|adgangskode|lozinka|parool|mot.de.passe|mdp|clave|kod|codice|codigo|kode|koodi|koden|combinazione|combinatie|szyfr|tresor|cadenas|coffre|candado|cofre|cadeado|lucchetto|cassaforte|hangslot|kluis|sejf|contrasenya|parol|slapta|geslo|lykilor|fjal|kata|digicode|deurcode|t\u00fcrcode|alarmcode|adgangskode)/i;

/** Past participles of other languages ("è scritta", "est stocké", "ist hinterlegt", "está guardada"): a sentence goes on, no password. */
export const FOREIGN_PARTICIPLE = /(?:ata|ato|ati|ita|ito|ada|ado|ida|ido|\p{L}{3}\u00e9|\u00e9e|\u00e9s|iert|legt|stellig)$|^(?:aus|ab|an|auf|ein|hinter|mit|vor|zu|weg|um)?ge\p{L}{3,}[dt]$/u;

/** What a sentence says a password or a code is, in other languages: secret, temporary, new, personal, empty... */
export const FOREIGN_PROSE_WORDS = new Set(
  [
    'geheim neu alt lang kurz stark schwach gleich leer g\u00fcltig ung\u00fcltig falsch richtig bekannt unbekannt vertraulich pers\u00f6nlich tempor\u00e4r vorl\u00e4ufig sicher unsicher erforderlich', // de
    'secret secr\u00e8te temporaire nouveau nouvelle personnel personnelle longue courte forte faible vide valide invalide inconnu incorrect obligatoire confidentiel confidentielle', // fr
    'secreta secreto temporal nueva nuevo personal larga largo corta corto fuerte d\u00e9bil vac\u00eda vac\u00edo v\u00e1lida inv\u00e1lida incorrecta correcta obligatoria confidencial', // es
    'tempor\u00e1ria tempor\u00e1rio nova novo pessoal longa curta fraca vazia inv\u00e1lida incorreta obrigat\u00f3ria', // pt
    'segreta segreto temporanea temporaneo nuova nuovo personale lunga lungo debole vuota scaduta sconosciuta errata corretta obbligatoria riservata', // it
    'tijdelijk nieuw persoonlijk sterk zwak leeg geldig ongeldig onbekend verkeerd juist verplicht vertrouwelijk', // nl
    'tajne tajny tajna tymczasowe tymczasowy tymczasowa nowe nowy nowa osobiste osobisty d\u0142ugie kr\u00f3tkie silne s\u0142abe puste wa\u017cne niewa\u017cne nieznane b\u0142\u0119dne poprawne wymagane poufne', // pl
    '\u0441\u0435\u043a\u0440\u0435\u0442\u043d\u044b\u0439 \u0441\u0435\u043a\u0440\u0435\u0442\u043d\u0430\u044f \u0432\u0440\u0435\u043c\u0435\u043d\u043d\u044b\u0439 \u0432\u0440\u0435\u043c\u0435\u043d\u043d\u0430\u044f \u043d\u043e\u0432\u044b\u0439 \u043d\u043e\u0432\u0430\u044f \u043b\u0438\u0447\u043d\u044b\u0439 \u043f\u0443\u0441\u0442\u043e\u0439 \u043d\u0435\u0432\u0435\u0440\u043d\u044b\u0439', // ru: секретный, временный, новый, личный, пустой, неверный
    'hemligt hemlig tillf\u00e4lligt tillf\u00e4llig nytt personligt personlig l\u00e5ngt starkt svagt tomt giltigt ogiltigt ok\u00e4nt fel r\u00e4tt obligatoriskt', // sv
  ]
    .join(' ')
    .split(' '),
);
