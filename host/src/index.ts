// The layout's CSS is linked from the HTML (not injected by script), so prerendered pages paint styled.
import './styles/site.css';

// The async boundary lets Module Federation negotiate shared singletons before any app code runs.
void import('./bootstrap');
