import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './share.en.json';
import id from './share.id.json';

export const shareNamespace = 'share';
registerNamespace(shareNamespace, { en, id });
