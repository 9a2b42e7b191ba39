// The entry of the recipient's pages (/enter-link, /location-failed, /share and their /id twins). A relative opens
// them from an SMS on whatever phone they have: this entry brings React, the federation runtime and the page, and
// none of the app's router, i18next, stores or component library. The layout is the same CSS as the app's.
import './styles/site.css';

// The async boundary lets Module Federation negotiate shared singletons before any app code runs.
void import('./recipient-bootstrap');
